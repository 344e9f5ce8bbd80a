import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { BACKPORTS_SOURCE_PATH, debianCodename, runscBuildDate } from './gvisor-package';
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
      sources: [],
      steps: [['update'], ['install', '-y', '--no-install-recommends', 'redis-server', 'bubblewrap', 'socat', 'git']],
    });
  });

  it('a package from bookworm-backports: its apt source is written first and it is installed from that suite', () => {
    const plan = planInstall(['socat', { package: 'runsc', suite: 'bookworm-backports' }], { isRoot: true, hasAptGet: true });
    expect(plan).toMatchObject({
      kind: 'apt',
      packages: ['socat', 'runsc'],
      sources: [{ path: BACKPORTS_SOURCE_PATH, content: expect.stringContaining('Suites: bookworm-backports') }],
      steps: [
        ['update'],
        ['install', '-y', '--no-install-recommends', 'socat'],
        ['install', '-y', '--no-install-recommends', '-t', 'bookworm-backports', 'runsc'],
      ],
    });
    expect(installCommand([{ package: 'runsc', suite: 'bookworm-backports' }])).toMatch(
      /^printf '.*Suites: bookworm-backports.*' \| sudo tee \/etc\/apt\/sources.list.d\/looplane-bookworm-backports.sources && sudo apt-get update && sudo apt-get install -y --no-install-recommends -t bookworm-backports runsc$/,
    );
  });

  it('not root, or no apt-get: the one command for the user to run', () => {
    const command = 'sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap socat';
    expect(planInstall(['bubblewrap', 'socat'], { isRoot: false, hasAptGet: true })).toEqual({ kind: 'manual', packages: ['bubblewrap', 'socat'], command });
    expect(planInstall(['bubblewrap', 'socat'], { isRoot: true, hasAptGet: false })).toMatchObject({ kind: 'manual', command });
    expect(installCommand(['git'])).toBe('sudo apt-get update && sudo apt-get install -y --no-install-recommends git');
  });
});

describe('sandboxTools', () => {
  it('needs bubblewrap only for the bwrap driver (the default); runsc, crun, socat and git always', () => {
    expect(sandboxTools(undefined, 'trixie').map((t) => t.package)).toEqual(['bubblewrap', 'runsc', 'crun', 'socat', 'git']);
    expect(sandboxTools('podman', 'trixie').map((t) => t.package)).toEqual(['runsc', 'crun', 'socat', 'git']);
  });

  it('adds QEMU, the kernel and a static busybox only when microvm is the driver or offered', () => {
    const microvm = ['qemu-system-x86', 'linux-image-amd64', 'busybox-static'];
    expect(sandboxTools('microvm', 'trixie').map((t) => t.package)).toEqual([...microvm, 'runsc', 'crun', 'socat', 'git']);
    expect(sandboxTools('bwrap', 'trixie', ['bwrap', 'microvm']).map((t) => t.package)).toEqual([...microvm, 'bubblewrap', 'runsc', 'crun', 'socat', 'git']);
    expect(sandboxTools('bwrap', 'trixie', ['gvisor']).map((t) => t.package)).not.toContain('qemu-system-x86');
  });

  it("takes runsc from bookworm-backports on bookworm only, and finds bookworm's own 2022 build too old", () => {
    expect(sandboxTools(undefined, 'bookworm').find((t) => t.package === 'runsc')?.suite).toBe('bookworm-backports');
    expect(sandboxTools(undefined, 'trixie').find((t) => t.package === 'runsc')?.suite).toBeUndefined();
    expect(runscBuildDate('runsc version 0.0~20221219.0\nspec: 1.0.2-dev')).toBe('20221219');
    expect(runscBuildDate('runsc version release-20240729.0')).toBe('20240729');
    expect(debianCodename('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')).toBe('bookworm');
    expect(debianCodename('ID=alpine\n')).toBeNull();
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
    codename: 'trixie',
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
    for (const name of ['redis-server', 'bwrap', 'runsc', 'crun', 'socat', 'git', 'apt-get']) await executable(name);
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
      if (args[0] === 'install') for (const name of ['redis-server', 'bwrap', 'runsc', 'crun', 'socat']) await executable(name);
    };
    expect(await ensureHostPackages(context({ aptGet }))).toEqual({ redisServer: join(dir, 'redis-server') });
    expect(calls).toEqual([['update'], ['install', '-y', '--no-install-recommends', 'redis-server', 'bubblewrap', 'runsc', 'crun', 'socat']]);
    expect(out).toContain('Installing what is missing on this host (redis-server, bubblewrap, runsc, crun, socat) with apt-get');
  });

  it('on bookworm, a runsc too old to use is replaced from bookworm-backports after its source is added', async () => {
    for (const name of ['redis-server', 'bwrap', 'crun', 'socat', 'git', 'apt-get']) await executable(name);
    await writeFile(join(dir, 'runsc'), '#!/bin/sh\necho "runsc version 0.0~20221219.0"\n');
    await chmod(join(dir, 'runsc'), 0o755);
    const calls: string[][] = [];
    const sources: string[] = [];
    const aptGet = async (args: string[]) => {
      calls.push(args);
      if (args[0] === 'install') await writeFile(join(dir, 'runsc'), '#!/bin/sh\necho "runsc version 0.0~20240729.0"\n');
    };
    await ensureHostPackages(context({ codename: 'bookworm', aptGet, writeSource: async (path) => void sources.push(path) }));
    expect(sources).toEqual([BACKPORTS_SOURCE_PATH]);
    expect(calls).toEqual([['update'], ['install', '-y', '--no-install-recommends', '-t', 'bookworm-backports', 'runsc']]);
    expect(out).not.toContain('not installed');
  });

  it('not root: prints the one command for the sandbox packages and goes on (no redis needed)', async () => {
    await executable('apt-get');
    const calls: string[][] = [];
    expect(await ensureHostPackages(context({ needRedis: false, isRoot: false, aptGet: async (a) => void calls.push(a) }))).toEqual({ redisServer: null });
    expect(calls).toEqual([]);
    expect(out).toBe(
      'warning: bubblewrap, runsc, crun, socat, git not installed: the sandbox drivers that need them report themselves unavailable (their tool calls fail) until you run `sudo apt-get update && sudo apt-get install -y --no-install-recommends bubblewrap runsc crun socat git`\n',
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
    expect(out).toContain('warning: apt-get could not install runsc, crun, socat, git: apt exited with code 100');
    expect(out).toContain('runsc, crun, socat, git not installed');
  });
});
