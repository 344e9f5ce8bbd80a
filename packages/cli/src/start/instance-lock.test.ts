import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { acquireInstanceLock } from './instance-lock';
import { processStartTime, signalGroup, waitUntil } from './proc';

let home: string;
let warnings: string;
const printer = new Printer({ write: () => true }, { write: (t: string) => (warnings += t) });
const sleepers: number[] = [];

function sleeper(): number {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  child.unref();
  sleepers.push(child.pid!);
  return child.pid!;
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'looplane-lock-'));
  warnings = '';
});

afterEach(async () => {
  for (const pid of sleepers.splice(0)) signalGroup(pid, 'SIGKILL');
  await rm(home, { recursive: true, force: true });
});

describe('acquireInstanceLock', () => {
  it('records this process and the children it starts, and removes the file on release', async () => {
    const lock = await acquireInstanceLock(home, printer);
    const pid = sleeper();
    await lock.record('redis', pid);
    const state = JSON.parse(await readFile(join(home, 'run.json'), 'utf8'));
    expect(state.pid).toBe(process.pid);
    expect(state.children).toEqual([{ name: 'redis', pid, startTime: processStartTime(pid) }]);
    await lock.release();
    expect(existsSync(join(home, 'run.json'))).toBe(false);
  });

  it('refuses a second start while the owner is alive', async () => {
    const owner = sleeper();
    await writeFile(join(home, 'run.json'), JSON.stringify({ pid: owner, startTime: processStartTime(owner), children: [] }));
    await expect(acquireInstanceLock(home, printer)).rejects.toThrow(
      `Looplane is already running from ${home} (pid ${owner}). Stop it first, or set LOOPLANE_HOME to another directory.`,
    );
  });

  it('stops what a dead owner left running, and leaves reused pids alone', async () => {
    const leftover = sleeper();
    const unrelated = sleeper();
    await writeFile(
      join(home, 'run.json'),
      JSON.stringify({
        pid: 999_999_999,
        startTime: 1,
        children: [
          { name: 'postgres', pid: leftover, startTime: processStartTime(leftover) },
          // Same pid, other start time: the pid was reused by an unrelated process.
          { name: 'redis', pid: unrelated, startTime: 12345 },
        ],
      }),
    );
    await acquireInstanceLock(home, printer);
    expect(await waitUntil(() => processStartTime(leftover) === null, 5000)).toBe(true);
    expect(processStartTime(unrelated)).not.toBeNull();
    expect(warnings).toContain(`stopping postgres (pid ${leftover}), left running by an earlier start that did not shut down`);
  });
});
