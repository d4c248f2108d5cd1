/** Stops once on Ctrl-C or a kill, then exits. */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const once = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void once());
  process.on('SIGTERM', () => void once());
}

/** A command's start: a failure is one line, then exit 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
