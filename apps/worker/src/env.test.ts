import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadWorkerEnv, sandboxDriversOf, workspaceRootOf } from './env';

const base = { DATABASE_URL: 'postgresql://u:p@db:5432/looplane', REDIS_URL: 'redis://cache:6379' };

describe('loadWorkerEnv', () => {
  it('applies defaults', () => {
    const env = loadWorkerEnv(base);
    expect(env.WORKER_CONCURRENCY).toBe(50);
    expect(env).toMatchObject({ LEASE_TTL_MS: 30_000, RECONCILE_INTERVAL_MS: 5000, SHUTDOWN_DRAIN_MS: 5000, DATABASE_POOL_SIZE: 20, QUEUE_PREFIX: 'bull' });
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.LOOPLANE_ENCRYPTION_KEY).toBeUndefined();
  });

  it('defaults the sandbox to bwrap with workspaces under the data directory', () => {
    const env = loadWorkerEnv(base);
    expect(env.LOOPLANE_SANDBOX_DRIVER).toBe('bwrap');
    expect(workspaceRootOf(env)).toBe(resolve('.looplane', 'workspaces'));
    expect(workspaceRootOf(loadWorkerEnv({ ...base, LOOPLANE_HOME: '/srv/looplane' }))).toBe('/srv/looplane/workspaces');
    const custom = loadWorkerEnv({ ...base, LOOPLANE_SANDBOX_DRIVER: 'podman', LOOPLANE_WORKSPACE_ROOT: '/var/lib/looplane/ws' });
    expect(custom.LOOPLANE_SANDBOX_DRIVER).toBe('podman');
    expect(workspaceRootOf(custom)).toBe('/var/lib/looplane/ws');
  });

  it("podman's runtime defaults to runc and takes crun or runsc", () => {
    expect(loadWorkerEnv(base).LOOPLANE_PODMAN_RUNTIME).toBe('runc');
    expect(loadWorkerEnv({ ...base, LOOPLANE_PODMAN_RUNTIME: 'runsc' }).LOOPLANE_PODMAN_RUNTIME).toBe('runsc');
  });

  it('offers gvisor next to bwrap by default, nothing more next to podman or gvisor, and what LOOPLANE_SANDBOX_DRIVERS lists', () => {
    expect(sandboxDriversOf(loadWorkerEnv(base))).toEqual(['bwrap', 'gvisor']);
    expect(sandboxDriversOf(loadWorkerEnv({ ...base, LOOPLANE_SANDBOX_DRIVER: 'podman' }))).toEqual(['podman']);
    expect(sandboxDriversOf(loadWorkerEnv({ ...base, LOOPLANE_SANDBOX_DRIVER: 'gvisor' }))).toEqual(['gvisor']);
    expect(sandboxDriversOf(loadWorkerEnv({ ...base, LOOPLANE_SANDBOX_DRIVERS: 'bwrap' }))).toEqual(['bwrap']);
    expect(sandboxDriversOf(loadWorkerEnv({ ...base, LOOPLANE_SANDBOX_DRIVER: 'gvisor', LOOPLANE_SANDBOX_DRIVERS: ' bwrap , gvisor,bwrap' }))).toEqual([
      'gvisor',
      'bwrap',
    ]);
  });

  it('delivers webhooks to public addresses only unless LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true; links under the public URL', () => {
    expect(loadWorkerEnv(base).LOOPLANE_WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadWorkerEnv(base).LOOPLANE_PUBLIC_URL).toBeUndefined();
    expect(loadWorkerEnv({ ...base, LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: 'true' }).LOOPLANE_WEBHOOKS_ALLOW_PRIVATE).toBe(true);
    expect(loadWorkerEnv({ ...base, LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: 'false', LOOPLANE_PUBLIC_URL: 'https://looplane.example.com' })).toMatchObject({
      LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: false,
      LOOPLANE_PUBLIC_URL: 'https://looplane.example.com',
    });
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toThrow(
      'Invalid environment: LOOPLANE_WEBHOOKS_ALLOW_PRIVATE must be true or false',
    );
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_PUBLIC_URL: 'looplane.example.com' })).toThrow(
      'Invalid environment: LOOPLANE_PUBLIC_URL must be an http(s) URL',
    );
  });

  it('calls model endpoints at special-purpose addresses only as LOOPLANE_ENDPOINTS_ALLOW lists them', () => {
    expect(loadWorkerEnv(base).LOOPLANE_ENDPOINTS_ALLOW).toEqual([]);
    expect(loadWorkerEnv({ ...base, LOOPLANE_ENDPOINTS_ALLOW: '[::1]:8080,fe80::/10' }).LOOPLANE_ENDPOINTS_ALLOW).toMatchObject([
      { type: 'address', port: 8080 },
      { type: 'range', bits: 10 },
    ]);
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_ENDPOINTS_ALLOW: '10.0.0.0/40' })).toThrow(
      'Invalid environment: LOOPLANE_ENDPOINTS_ALLOW must be a comma-separated list of hosts, host:port or CIDR ranges ("10.0.0.0/40" is none of them)',
    );
  });

  it('scheduler: wakes at least every LOOPLANE_SCHEDULER_POLL_MS; ticks count against the web app’s run-start limits', () => {
    expect(loadWorkerEnv(base)).toMatchObject({ LOOPLANE_SCHEDULER_POLL_MS: 1000, LOOPLANE_RUNS_PER_MINUTE: 120, LOOPLANE_MAX_QUEUED_RUNS: 1000 });
    expect(loadWorkerEnv({ ...base, LOOPLANE_SCHEDULER_POLL_MS: '250', LOOPLANE_RUNS_PER_MINUTE: '0', LOOPLANE_MAX_QUEUED_RUNS: '50' })).toMatchObject({
      LOOPLANE_SCHEDULER_POLL_MS: 250,
      LOOPLANE_RUNS_PER_MINUTE: 0,
      LOOPLANE_MAX_QUEUED_RUNS: 50,
    });
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_SCHEDULER_POLL_MS: '10' })).toThrow(
      'Invalid environment: LOOPLANE_SCHEDULER_POLL_MS must be a whole number between 50 and 60000',
    );
  });

  it('accepts explicit values', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const env = loadWorkerEnv({ ...base, WORKER_CONCURRENCY: '8', LOG_LEVEL: 'debug', LOOPLANE_ENCRYPTION_KEY: key });
    expect(env).toMatchObject({ WORKER_CONCURRENCY: 8, LOG_LEVEL: 'debug', LOOPLANE_ENCRYPTION_KEY: key });
  });

  it.each([
    [{}, 'Invalid environment: DATABASE_URL is required (a postgres:// connection URL); REDIS_URL is required (a redis:// URL)'],
    [{ ...base, DATABASE_URL: '' }, 'Invalid environment: DATABASE_URL is required (a postgres:// connection URL)'],
    [{ ...base, REDIS_URL: 'cache:6379' }, 'Invalid environment: REDIS_URL must be a redis:// or rediss:// URL'],
    [{ ...base, WORKER_CONCURRENCY: '0' }, 'Invalid environment: WORKER_CONCURRENCY must be a whole number between 1 and 10000'],
    [{ ...base, WORKER_CONCURRENCY: 'many' }, 'Invalid environment: WORKER_CONCURRENCY must be a whole number between 1 and 10000'],
    [{ ...base, LEASE_TTL_MS: '10' }, 'Invalid environment: LEASE_TTL_MS must be a whole number between 1000 and 600000'],
    [{ ...base, QUEUE_PREFIX: 'a b' }, 'Invalid environment: QUEUE_PREFIX must be 1-64 letters, digits, :, _ or -'],
    [{ ...base, LOOPLANE_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'Invalid environment: LOOPLANE_ENCRYPTION_KEY must be 32 random bytes, base64-encoded'],
    [{ ...base, LOG_LEVEL: 'loud' }, 'Invalid environment: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [
      { ...base, LOOPLANE_SANDBOX_DRIVER: 'docker' },
      'Invalid environment: LOOPLANE_SANDBOX_DRIVER must be one of bwrap, podman, gvisor, microvm, dangerous-none',
    ],
    [{ ...base, LOOPLANE_PODMAN_RUNTIME: 'kata' }, 'Invalid environment: LOOPLANE_PODMAN_RUNTIME must be one of runc, crun, runsc'],
    [
      { ...base, LOOPLANE_SANDBOX_DRIVERS: 'bwrap,docker' },
      'Invalid environment: LOOPLANE_SANDBOX_DRIVERS must list drivers among bwrap, podman, gvisor, microvm, dangerous-none',
    ],
    [
      { ...base, LOOPLANE_SANDBOX_DRIVERS: 'podman' },
      'Invalid environment: LOOPLANE_SANDBOX_DRIVERS podman runs every workspace as one account and cannot share a worker with bwrap',
    ],
    [
      { ...base, LOOPLANE_SANDBOX_DRIVERS: 'dangerous-none' },
      'Invalid environment: LOOPLANE_SANDBOX_DRIVERS cannot offer dangerous-none: only LOOPLANE_SANDBOX_DRIVER may name it',
    ],
  ])('rejects %o with one line naming the variable', (source, message) => {
    expect(() => loadWorkerEnv(source)).toThrow(message);
  });
});
