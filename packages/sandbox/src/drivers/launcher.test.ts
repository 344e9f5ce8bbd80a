import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript } from './launcher';

const dir = mkdtempSync(join(tmpdir(), 'launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the launcher with `tasks` as its cgroup file and a command that leaves a mark if it runs. */
function launch(tasks: string, name: string) {
  const mark = join(dir, `ran-${name}`);
  const { shell, script } = launcherScript([], { fileBytes: 1 << 20 }, { kind: 'attach', files: [tasks] });
  const result = spawnSync(shell, ['-c', script, 'launcher', '/bin/sh', '-c', `touch ${mark}`], { stdio: 'ignore' });
  return { status: result.status, ran: existsSync(mark) };
}

describe('launcher (real shell)', () => {
  it('writes the move request to its tasks file, then runs the command', () => {
    const tasks = join(dir, 'tasks-ok');
    writeFileSync(tasks, '');
    expect(launch(tasks, 'ok')).toEqual({ status: 0, ran: true });
    expect(readFileSync(tasks, 'utf8')).toBe('0\n');
  });

  it('stops before running anything when it cannot enter its cgroup', () => {
    // A file that cannot be opened for writing, as a tasks file the uid may not write.
    expect(launch(join(dir, 'no-such-dir', 'tasks'), 'refused')).toEqual({ status: 125, ran: false });
  });
});
