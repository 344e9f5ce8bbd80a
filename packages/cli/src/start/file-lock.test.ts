import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock } from './file-lock';
import { processStartTime } from './proc';

let dir: string;
const signal = new AbortController().signal;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-flock-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('acquireFileLock', () => {
  it('makes a second holder wait until the first releases', async () => {
    const file = join(dir, 'nested', 'build.lock');
    const release = await acquireFileLock(file, { signal, onWait: () => {} });
    let waited = 0;
    let acquired = false;
    const second = acquireFileLock(file, { signal, onWait: () => void waited++ }).then((r) => {
      acquired = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acquired).toBe(false);
    expect(waited).toBe(1);
    await release();
    await (await second)();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose owner is gone', async () => {
    const file = join(dir, 'build.lock');
    // This process, but another start time: the pid was reused after the owner died.
    await writeFile(file, JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid)! - 1 }));
    let waited = false;
    const release = await acquireFileLock(file, { signal, onWait: () => (waited = true) });
    expect(waited).toBe(false);
    await release();
  });

  it('stops waiting when aborted', async () => {
    const file = join(dir, 'build.lock');
    const release = await acquireFileLock(file, { signal, onWait: () => {} });
    const controller = new AbortController();
    const waiting = acquireFileLock(file, { signal: controller.signal, onWait: () => {} });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await release();
  });
});
