import { describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { describeExit, spawnChild } from './children';
import { groupAlive, groupMembers } from './proc';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

function capture() {
  const lines: string[] = [];
  const sink = { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) };
  return { lines, printer: new Printer(sink, sink) };
}

describe('spawnChild', () => {
  it('prefixes every output line with the child name and reports the exit', async () => {
    const { lines, printer } = capture();
    const child = await spawnChild({ name: 'demo', command: 'sh', args: ['-c', 'echo hello; echo oops >&2; printf partial; exit 3'], cwd: '/', env, printer });
    const exit = await child.exited;
    expect(describeExit(exit)).toBe('exited with code 3');
    expect(lines.sort()).toEqual(['demo | hello', 'demo | oops', 'demo | partial']);
    expect(child.tail.text()).toContain('hello');
  });

  it('runs the child in its own process group', async () => {
    const child = await spawnChild({ name: 'sleeper', command: 'sleep', args: ['30'], cwd: '/', env });
    expect(groupMembers(child.pid)).toEqual([child.pid]);
    await child.stop();
  });

  it('stops the whole process group, grandchildren included', async () => {
    const child = await spawnChild({ name: 'tree', command: 'sh', args: ['-c', 'sleep 300 & sleep 300 & wait'], cwd: '/', env });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(groupMembers(child.pid).length).toBe(3);
    await child.stop();
    expect(groupAlive(child.pid)).toBe(false);
    expect(child.stopping).toBe(true);
  });

  it('SIGKILLs a group that ignores SIGTERM once the grace period is over', async () => {
    const child = await spawnChild({ name: 'stubborn', command: 'sh', args: ['-c', 'trap "" TERM; sleep 300 & wait'], cwd: '/', env });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const startedAt = Date.now();
    await child.stop('SIGTERM', 300);
    expect(groupAlive(child.pid)).toBe(false);
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it('rejects with a clear message when the executable does not exist', async () => {
    await expect(spawnChild({ name: 'ghost', command: '/nonexistent/bin/ghost', args: [], cwd: '/', env })).rejects.toThrow(
      /could not start ghost \(\/nonexistent\/bin\/ghost\): spawn \/nonexistent\/bin\/ghost ENOENT/,
    );
  });
});
