import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { ensureHostPackages, installCommand, planInstall, sandboxTools } from './host-packages';
import { INSTALL_HINT } from './redis-binary';

describe('planInstall', () => {
  it('does nothing when nothing is missing', () => {
    expect(planInstall([], { isRoot: true, hasAptGet: true })).toEqual({ kind: 'nothing' });
    expect(planInstall([], { isRoot: false, hasAptGet: false })).toEqual({ kind: 'nothing' });
  });

  it('as root with apt-get: one update, then one install of everything missing', () => {
    expect(planInstall(['redis-server', 'bubblewrap', 'socat', 'git'], { isRoot: true, hasAptGet: true })).toEqual({
      kind: 'apt',
      packages: ['redis-server', 'bubblewrap', 'socat', 'git'],
      steps: [['update'], ['install', '-y', '--no-install-recommends', 'redis-server', 'bubblewrap', 'socat', 'git']],
    });
  });

  it('not root, or no apt-get: the one command for the user to run', () => {
    const command = 'sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap socat';
    expect(planInstall(['bubblewrap', 'socat'], { isRoot: false, hasAptGet: true })).toEqual({ kind: 'manual', packages: ['bubblewrap', 'socat'], command });
    expect(planInstall(['bubblewrap', 'socat'], { isRoot: true, hasAptGet: false })).toMatchObject({ kind: 'manual', command });
    expect(installCommand(['git'])).toBe('sudo apt-get update && sudo apt-get install -y --no-install-recommends git');
  });
});

describe('sandboxTools', () => {
  it('needs bubblewrap only for the bwrap driver (the default); socat and git always', () => {
    expect(sandboxTools(undefined).map((t) => t.package)).toEqual(['bubblewrap', 'socat', 'git']);
    expect(sandboxTools('podman').map((t) => t.package)).toEqual(['socat', 'git']);
  });
});

describe('ensureHostPackages', () => {
  let dir: string;
  let out: string;
  const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (out += t) });
  const signal = new AbortController().signal;
  const executable = async (name: string) => {
    await writeFile(join(dir, name), '#!/bin/sh\nexit 0\n');
    await chmod(join(dir, name), 0o755);
  };
  const context = (overrides: Partial<Parameters<typeof ensureHostPackages>[0]> = {}) => ({
    env: { PATH: dir },
    printer,
    signal,
    needRedis: true,
    isRoot: true,
    ...overrides,
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'looplane-host-'));
    out = '';
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('installs nothing when everything is there', async () => {
    for (const name of ['redis-server', 'bwrap', 'socat', 'git', 'apt-get']) await executable(name);
    const calls: string[][] = [];
    expect(await ensureHostPackages(context({ aptGet: async (a) => void calls.push(a) }))).toEqual({ redisServer: join(dir, 'redis-server') });
    expect(calls).toEqual([]);
    expect(out).toBe('');
  });

  it('as root installs every missing package with one update and one install, saying so', async () => {
    await executable('apt-get');
    await executable('git');
    const calls: string[][] = [];
    const aptGet = async (args: string[]) => {
      calls.push(args);
      if (args[0] === 'install') for (const name of ['redis-server', 'bwrap', 'socat']) await executable(name);
    };
    expect(await ensureHostPackages(context({ aptGet }))).toEqual({ redisServer: join(dir, 'redis-server') });
    expect(calls).toEqual([['update'], ['install', '-y', '--no-install-recommends', 'redis-server', 'bubblewrap', 'socat']]);
    expect(out).toContain('Installing what is missing on this host (redis-server, bubblewrap, socat) with apt-get');
  });

  it('not root: prints the one command for the sandbox packages and goes on (no redis needed)', async () => {
    await executable('apt-get');
    const calls: string[][] = [];
    expect(await ensureHostPackages(context({ needRedis: false, isRoot: false, aptGet: async (a) => void calls.push(a) }))).toEqual({ redisServer: null });
    expect(calls).toEqual([]);
    expect(out).toBe(
      'warning: bubblewrap, socat, git not installed: the sandbox reports itself unavailable (sandboxed tool calls fail) until you run `sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap socat git`\n',
    );
  });

  it('fails with the redis hint when redis-server is missing and cannot be installed', async () => {
    await expect(ensureHostPackages(context({ isRoot: true }))).rejects.toThrow(INSTALL_HINT);
    await expect(ensureHostPackages(context({ isRoot: false }))).rejects.toThrow(INSTALL_HINT);
  });

  it('goes on with a warning when apt-get fails and only sandbox packages are missing', async () => {
    await executable('apt-get');
    const aptGet = async (args: string[]) => {
      if (args[0] === 'update') throw new Error('apt exited with code 100');
    };
    expect(await ensureHostPackages(context({ needRedis: false, sandboxDriver: 'podman', aptGet }))).toEqual({ redisServer: null });
    expect(out).toContain('warning: apt-get could not install socat, git: apt exited with code 100');
    expect(out).toContain('socat, git not installed');
  });
});
