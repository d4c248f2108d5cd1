import { startCosmos } from '../host/local/services';

/**
 * The local Cosmos server in a process of its own, for bench/fold.bench.ts: a backlog of a million facts is held in
 * its memory, which the bench's own heap need not carry. Prints `ENDPOINT <url>` once listening; stops on SIGTERM.
 */
startCosmos().then(
  (cosmos) => {
    process.stdout.write(`ENDPOINT ${cosmos.endpoint}\n`);
    process.on('SIGTERM', () => {
      void cosmos.stop().finally(() => process.exit(0));
    });
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
