import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, mentioning as mentioningAny, spawnCli, waitForOutput } from '../testing/looplane-process';
import { findFreePort, isPortFree } from './free-port';
import { processStartTime } from './proc';

/**
 * The real `looplane start`, fully embedded (no DATABASE_URL / REDIS_URL), in a temporary
 * LOOPLANE_HOME. An up-to-date dashboard build in apps/web/.next is reused whatever the home (its
 * fingerprint lives in the build); otherwise the first start builds it (minutes on a cold machine).
 */

const parent = await mkdtemp(join(tmpdir(), 'looplane-start-'));
await chmod(parent, 0o755); // Postgres runs as the `postgres` user when we are root.
const home = join(parent, 'home');
const port = await findFreePort();

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const start = () => spawnCli(['start'], { LOOPLANE_HOME: home, PORT: String(port) });

/** The local addresses of the TCP sockets listening on `port`, from /proc/net/tcp and tcp6. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (existsSync(file) ? readFileSync(file, 'utf8') : '').split('\n').slice(1)) {
      const [, local = '', , state] = line.trim().split(/\s+/);
      const [address = '', localPort] = local.split(':');
      if (localPort !== hexPort || state !== '0A') continue;
      // IPv4 as little-endian hex; IPv6 shown as is (any would be a surprise here).
      addresses.push(
        address.length === 8
          ? (address.match(/../g) ?? [])
              .reverse()
              .map((b) => parseInt(b, 16))
              .join('.')
          : address,
      );
    }
  }
  return addresses;
}
const mentioning = () => mentioningAny(home, port);

describe('looplane start (fully embedded)', () => {
  it('starts, answers /api/health, prints how to sign in, and leaves nothing behind after SIGINT', async () => {
    const running = start();
    const line = await waitForOutput(
      running,
      /Looplane is running at (http:\/\/localhost:(\d+)) — sign in as admin@looplane\.local\n {2}password: (\S+)\n/,
      330_000,
    );
    expect(line[2]).toBe(String(port));
    expect(line[3]!.length).toBeGreaterThanOrEqual(12);
    // Also printed as soon as it was created, before anything that could still fail.
    expect(running.output()).toContain(`Created the admin admin@looplane.local with the generated password ${line[3]}\n`);

    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });
    // This machine only by default, and the banner says so.
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(running.output()).toContain(`  listening on 127.0.0.1:${port} only (this machine); set HOST=0.0.0.0 to open it to other machines\n`);

    const tree = descendants(running.child.pid!);
    const names = tree.map((p) => p.cmdline).join('\n');
    expect(names).toContain(join(home, 'postgres'));
    expect(names).toContain('redis-server');
    // The private Redis wants a password, which no command line shows.
    const redisPassword = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8')).redisPassword as string;
    expect(redisPassword.length).toBeGreaterThanOrEqual(16);
    expect(names).not.toContain(redisPassword);
    expect(names).toContain(join('apps', 'worker', 'dist', 'main.mjs'));
    expect(tree.length).toBeGreaterThanOrEqual(4);

    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('Looplane stopped.');

    const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(await isPortFree(port)).toBe(true);
    expect(existsSync(join(home, 'run.json'))).toBe(false);
    const secrets = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8'));
    expect(Object.keys(secrets).sort()).toEqual(['encryptionKey', 'nextauthSecret', 'postgresPassword', 'redisPassword']);
  }, 360_000);

  it('restarts on the same data without a new password, and stops everything when redis dies', async () => {
    const running = start();
    await waitForOutput(running, /Looplane is running at http:\/\/localhost:\d+ — sign in as admin@looplane\.local\n {2}password: the one set/, 120_000);
    expect(running.output()).not.toContain('Building the dashboard');

    // The web and the worker are restarted when they die (supervision.int.test.ts); Redis is not.
    const tree = descendants(running.child.pid!);
    const redis = tree.find((p) => p.cmdline.includes('redis-server'))!;
    process.kill(redis.pid, 'SIGKILL');
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(/error: redis was killed by SIGKILL unexpectedly/);

    const survivors = tree.filter((p) => processStartTime(p.pid) === p.startTime);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(mentioning().map((p) => `${p.pid} ${p.cmdline}`)).toEqual([]);
    expect(await readdir(home)).toContain('postgres');
  }, 180_000);
});
