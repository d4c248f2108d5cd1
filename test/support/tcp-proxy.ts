import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../../host/local/services';

/**
 * A TCP proxy in front of a local service (the Cosmos server, Azurite's queue) that can be cut and restored on the same
 * port: cut, a client's connections are dropped and new ones refused, as when the service is down, while its data
 * stays behind the proxy. It can also hold each chunk the client sends for `delayMs`, as a real account's round trip
 * would.
 */
export async function tcpProxy(target: URL, options: { delayMs?: number } = {}) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const delayMs = options.delayMs ?? 0;
  let server: Server | undefined;
  const forward = (client: Socket, upstream: Socket) => {
    if (delayMs === 0) return void client.pipe(upstream);
    // Each chunk after the same delay, so their order is kept.
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    client.on('end', () => setTimeout(() => upstream.end(), delayMs));
  };
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        forward(client, upstream);
        upstream.pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await open();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: open,
    close() {
      for (const socket of sockets) socket.destroy();
      server?.close();
    },
  };
}
