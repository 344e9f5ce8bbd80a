import { createServer } from 'node:net';

function listenOnce(port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    const onListening = () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    };
    if (host === undefined) server.listen({ port, exclusive: true }, onListening);
    else server.listen({ port, host, exclusive: true }, onListening);
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, chosen by the kernel. Another
 * process could take it before the caller binds it; callers start their server right away and
 * fail loudly if it is taken.
 */
export function findFreePort(): Promise<number> {
  return listenOnce(0, '127.0.0.1');
}

/**
 * Whether `port` can be bound on every interface (what the web does with HOST=0.0.0.0). A port that anything
 * listens on, on any address family, counts as taken.
 */
export async function isPortFree(port: number): Promise<boolean> {
  try {
    // No host: Node binds `::` (dual stack) where IPv6 exists, which conflicts with any IPv4 or
    // IPv6 listener on the same port.
    await listenOnce(port);
    await listenOnce(port, '127.0.0.1');
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' || (error as NodeJS.ErrnoException).code === 'EACCES') return false;
    throw error;
  }
}
