import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DangerousNoneDriver } from './dangerous-none.driver';
import { probeDrivers } from './probe-drivers';
import type { SandboxDriver } from '../types';

let dir: string;
const workspace = () => ({
  path: dir,
  uid: process.getuid?.() === 0 ? 65534 : (process.getuid?.() ?? 0),
  gid: process.getuid?.() === 0 ? 65534 : (process.getgid?.() ?? 0),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dangerous-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('dangerous-none driver', () => {
  it.each([
    [{ environment: 'production', adminEnabled: true }, /runs only in development/],
    [{ environment: 'test', adminEnabled: true }, /runs only in development/],
    [{ environment: 'development', adminEnabled: false }, /an admin has to enable it/],
  ])('refuses unless development AND admin-enabled: %o', async (options, reason) => {
    const driver = new DangerousNoneDriver(options);
    await expect(driver.exec({ argv: ['true'], workspace: workspace() })).rejects.toThrow(reason);
    expect(await driver.probe()).toMatchObject({ driver: 'dangerous-none', available: false });
  });

  it('runs when allowed, with a cleared environment, and says it isolates nothing', async () => {
    process.env.LOOPLANE_DANGEROUS_TEST_SECRET = 'x';
    const driver = new DangerousNoneDriver({ environment: 'development', adminEnabled: true });
    const r = await driver.exec({ argv: ['/bin/sh', '-c', 'env; pwd'], workspace: workspace() });
    delete process.env.LOOPLANE_DANGEROUS_TEST_SECRET;
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('LOOPLANE_DANGEROUS_TEST_SECRET');
    expect(r.stdout.trim().split('\n').pop()).toBe(dir);
    const probe = await driver.probe();
    expect(probe).toMatchObject({ available: true, reason: 'no isolation: host files and network are reachable' });
    expect(probe.limitsEnforced.memoryBytes.enforced).toBe(false);
  });
});

describe('probeDrivers', () => {
  it('never throws: a failing or hanging probe is reported unavailable with the reason', async () => {
    const failing = { name: 'bwrap', probe: () => Promise.reject(new Error('boom')), exec: () => Promise.reject(new Error('x')) } as unknown as SandboxDriver;
    const hanging = { name: 'podman', probe: () => new Promise(() => undefined), exec: () => Promise.reject(new Error('x')) } as unknown as SandboxDriver;
    const [a, b] = await probeDrivers([failing, hanging], 50);
    expect(a).toMatchObject({ driver: 'bwrap', available: false, reason: 'probe failed: boom' });
    expect(b).toMatchObject({ driver: 'podman', available: false, reason: 'the probe did not finish within 50 ms' });
    expect(b?.limitsEnforced.wallTimeMs.enforced).toBe(false);
  });
});
