import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SupervisorState, supervisorStateFile } from './supervisor-state';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'looplane-supervisor-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const read = async () => JSON.parse(await readFile(supervisorStateFile(home), 'utf8'));

describe('SupervisorState', () => {
  it('writes zero counts first, then each restart, leaving no temporary file behind', async () => {
    const state = new SupervisorState(supervisorStateFile(home));
    await state.save();
    expect(await read()).toMatchObject({ version: 1, pid: process.pid, restarts: { web: 0, worker: 0 } });
    expect(await state.countRestart('worker')).toBe(1);
    await Promise.all([state.countRestart('worker'), state.countRestart('web')]);
    expect((await read()).restarts).toEqual({ web: 1, worker: 2 });
    expect(await readdir(home)).toEqual(['supervisor.json']);
  });
});
