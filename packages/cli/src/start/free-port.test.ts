import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort, isPortFree } from './free-port';

const servers: Server[] = [];

function listen(port: number, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, ...(host ? { host } : {}) }, () => resolve(server));
    servers.push(server);
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('findFreePort', () => {
  it('returns a port that can be bound on 127.0.0.1 right away', async () => {
    const port = await findFreePort();
    expect(port).toBeGreaterThan(1024);
    const server = await listen(port, '127.0.0.1');
    expect(server.listening).toBe(true);
  });

  it('returns different ports on consecutive calls while the first is in use', async () => {
    const first = await findFreePort();
    await listen(first, '127.0.0.1');
    expect(await findFreePort()).not.toBe(first);
  });
});

describe('isPortFree', () => {
  it('is true for a port nothing listens on', async () => {
    expect(await isPortFree(await findFreePort())).toBe(true);
  });

  it('is false when something listens on 127.0.0.1 only', async () => {
    const port = await findFreePort();
    await listen(port, '127.0.0.1');
    expect(await isPortFree(port)).toBe(false);
  });

  it('is false when something listens on all interfaces', async () => {
    const port = await findFreePort();
    await listen(port);
    expect(await isPortFree(port)).toBe(false);
  });

  it('is true again once the listener is gone', async () => {
    const port = await findFreePort();
    const server = await listen(port, '127.0.0.1');
    await new Promise((resolve) => server.close(resolve));
    expect(await isPortFree(port)).toBe(true);
  });
});
