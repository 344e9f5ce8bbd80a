import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { ensureRedisServer, findOnPath, INSTALL_HINT } from './redis-binary';

let dir: string;
let out: string;
const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (out += t) });

async function executable(name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, '#!/bin/sh\nexit 0\n');
  await chmod(file, 0o755);
  return file;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-path-'));
  out = '';
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('findOnPath', () => {
  it('finds an executable and ignores non-executable files', async () => {
    await writeFile(join(dir, 'redis-server'), 'not executable');
    expect(findOnPath('redis-server', `/nonexistent:${dir}`)).toBeNull();
    const file = await executable('redis-server');
    expect(findOnPath('redis-server', `/nonexistent:${dir}`)).toBe(file);
  });
});

describe('ensureRedisServer', () => {
  const signal = new AbortController().signal;

  it('returns the redis-server found on PATH without installing', async () => {
    const file = await executable('redis-server');
    const calls: string[][] = [];
    const found = await ensureRedisServer({ env: { PATH: dir }, printer, signal, isRoot: true, aptGet: async (a) => void calls.push(a) });
    expect(found).toBe(file);
    expect(calls).toEqual([]);
  });

  it('says in one line what to install when not root', async () => {
    await executable('apt-get');
    await expect(ensureRedisServer({ env: { PATH: dir }, printer, signal, isRoot: false })).rejects.toThrow(INSTALL_HINT);
    expect(INSTALL_HINT).not.toContain('\n');
  });

  it('says what to install when root but apt-get is missing', async () => {
    await expect(ensureRedisServer({ env: { PATH: dir }, printer, signal, isRoot: true })).rejects.toThrow(INSTALL_HINT);
  });

  it('installs with apt-get as root, saying so', async () => {
    await executable('apt-get');
    const calls: string[][] = [];
    const found = await ensureRedisServer({
      env: { PATH: dir },
      printer,
      signal,
      isRoot: true,
      aptGet: async (args) => {
        calls.push(args);
        await executable('redis-server');
      },
    });
    expect(found).toBe(join(dir, 'redis-server'));
    expect(calls).toEqual([['install', '-y', '--no-install-recommends', 'redis-server']]);
    expect(out).toContain('installing it with `apt-get install -y redis-server`');
  });

  it('runs apt-get update and retries when the first install fails', async () => {
    await executable('apt-get');
    const calls: string[][] = [];
    await ensureRedisServer({
      env: { PATH: dir },
      printer,
      signal,
      isRoot: true,
      aptGet: async (args) => {
        calls.push(args);
        if (calls.length === 1) throw new Error('E: Unable to locate package redis-server');
        if (args[0] === 'install') await executable('redis-server');
      },
    });
    expect(calls.map((a) => a[0])).toEqual(['install', 'update', 'install']);
    expect(out).toContain('apt-get update');
  });
});
