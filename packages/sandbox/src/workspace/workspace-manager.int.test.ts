import { mkdtemp, readFile, rm, stat, writeFile, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceManager } from './workspace-manager';

const root = process.getuid?.() === 0;
let dir: string;
let m: WorkspaceManager;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-ws-test-'));
  m = new WorkspaceManager({ root: join(dir, 'ws') });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('WorkspaceManager', () => {
  it('creates one repository per session, git dir beside (not inside) the work tree, owned by the session uid', async () => {
    const w = await m.create('s1');
    expect(await m.create('s1')).toEqual(w); // idempotent
    expect(w.path).toBe(join(dir, 'ws', 's1', 'work'));
    await expect(stat(join(w.path, '.git'))).rejects.toThrow();
    const git = await stat(join(dir, 'ws', 's1', 'git'));
    expect(git.mode & 0o777).toBe(0o700);
    expect((await stat(w.path)).uid).toBe(w.uid);
    expect((await stat(w.path)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'ws'))).mode & 0o777).toBe(0o711);
    if (root) expect(w.uid).toBeGreaterThanOrEqual(900_000);
    expect(await m.head('s1')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('gives every session its own uid when root', async () => {
    const a = await m.create('uid-a');
    const b = await m.create('uid-b');
    if (root) expect(a.uid).not.toBe(b.uid);
    await m.remove('uid-b');
    await expect(m.get('uid-b')).rejects.toThrow(/has no workspace/);
  });

  it('commits after a change and returns the same commit when nothing changed', async () => {
    const w = await m.create('s2');
    const first = await m.head('s2');
    expect(await m.commit('s2', 'nothing')).toEqual({ commit: first, changed: false });
    await writeFile(join(w.path, 'a.txt'), 'one\n');
    await mkdir(join(w.path, 'dir'));
    await symlink('a.txt', join(w.path, 'dir', 'link'));
    const second = await m.commit('s2', 'write_file call-1');
    expect(second.changed).toBe(true);
    expect(second.commit).not.toBe(first);
    expect(await m.diff({ sessionId: 's2', commit: first }, { sessionId: 's2', commit: second.commit })).toContain('+one');
  });

  it('forks a session at a commit: files and history copied, owned by the new uid, independent afterwards', async () => {
    const w = await m.create('parent');
    await writeFile(join(w.path, 'f.txt'), 'v1\n');
    const v1 = (await m.commit('parent', 'v1')).commit;
    await writeFile(join(w.path, 'f.txt'), 'v2\n');
    const v2 = (await m.commit('parent', 'v2')).commit;
    const child = await m.fork('parent', v1, 'child');
    expect(await readFile(join(child.path, 'f.txt'), 'utf8')).toBe('v1\n');
    expect((await stat(join(child.path, 'f.txt'))).uid).toBe(child.uid);
    expect(await m.head('child')).toBe(v1);
    await writeFile(join(child.path, 'g.txt'), 'child only\n');
    const c1 = (await m.commit('child', 'child change')).commit;
    expect(await readFile(join(w.path, 'f.txt'), 'utf8')).toBe('v2\n');
    const diff = await m.diff({ sessionId: 'parent', commit: v2 }, { sessionId: 'child', commit: c1 });
    expect(diff).toContain('-v2');
    expect(diff).toContain('+v1');
    expect(diff).toContain('+child only');
  });

  it('refuses bad forks: unknown commit, abbreviated id, existing target, bad session id', async () => {
    await m.create('p2');
    await expect(m.fork('p2', 'a'.repeat(40), 'c2')).rejects.toThrow(/is not in the workspace/);
    await expect(m.fork('p2', 'abc123', 'c2')).rejects.toThrow(/not a full commit id/);
    await expect(m.fork('p2', await m.head('p2'), 'p2')).rejects.toThrow(/already has a workspace/);
    await expect(m.create('../escape')).rejects.toThrow(/invalid session id/);
  });

  it('restores the work tree to the last commit, untracked files removed', async () => {
    const w = await m.create('s3');
    await writeFile(join(w.path, 'keep.txt'), 'keep');
    await m.commit('s3', 'keep');
    await writeFile(join(w.path, 'keep.txt'), 'changed');
    await writeFile(join(w.path, 'junk.bin'), 'junk');
    await m.restore('s3');
    expect(await readFile(join(w.path, 'keep.txt'), 'utf8')).toBe('keep');
    await expect(stat(join(w.path, 'junk.bin'))).rejects.toThrow();
  });

  it('never runs hooks or config planted in the work tree', async () => {
    const w = await m.create('s4');
    await mkdir(join(w.path, '.git', 'hooks'), { recursive: true });
    await writeFile(join(w.path, '.git', 'config'), `[core]\n\tfsmonitor = touch ${join(dir, 'PWNED')}\n\thooksPath = .git/hooks\n`);
    await writeFile(join(w.path, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${join(dir, 'PWNED')}\n`, { mode: 0o755 });
    await writeFile(join(w.path, 'x.txt'), 'x');
    await m.commit('s4', 'x');
    await expect(stat(join(dir, 'PWNED'))).rejects.toThrow();
  });

  it('serializes work on one session', async () => {
    const order: string[] = [];
    const slow = m.withLock('s1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('first');
    });
    const fast = m.withLock('s1', async () => order.push('second'));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['first', 'second']);
  });
});
