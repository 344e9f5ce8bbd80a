import { mkdtemp, readdir, readFile, rm, stat, writeFile, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPack, git, packCommit } from '@looplane/workspaces';
import { WorkspaceManager, type WorkspaceSnapshot } from './workspace-manager';

async function initBare(gitDir: string): Promise<void> {
  await git(['init', '-q', '--bare', gitDir], { gitDir });
}

async function tracked(manager: WorkspaceManager, sessionId: string): Promise<string> {
  const gitDir = join(dirname((await manager.get(sessionId)).path), 'git');
  return (await git(['ls-files'], { gitDir, workTree: (await manager.get(sessionId)).path })).stdout;
}

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
    expect(await m.commit('s2', 'nothing')).toEqual({ commit: first, changed: false, refused: [] });
    await writeFile(join(w.path, 'a.txt'), 'one\n');
    await mkdir(join(w.path, 'dir'));
    await symlink('a.txt', join(w.path, 'dir', 'link'));
    const second = await m.commit('s2', 'write_file call-1');
    expect(second.changed).toBe(true);
    expect(second.commit).not.toBe(first);
  });

  it('persists each commit it returns before returning it: a new one with the commit it was made on, an unchanged one without', async () => {
    const seen: WorkspaceSnapshot[] = [];
    const p = new WorkspaceManager({ root: join(dir, 'persisting'), persist: async (snapshot) => void seen.push(snapshot) });
    const w = await p.create('s1');
    const first = await p.head('s1');
    await p.commit('s1', 'nothing');
    // Unchanged: the current commit is handed over too (without a base), since the caller records it.
    expect(seen).toEqual([{ sessionId: 's1', gitDir: join(dir, 'persisting', 's1', 'git'), commit: first, base: null }]);
    seen.length = 0;
    await writeFile(join(w.path, '.gitignore'), 'build/\n');
    await mkdir(join(w.path, 'build'));
    await writeFile(join(w.path, 'build', 'out.txt'), 'ignored by the agent, kept by us\n');
    const made = await p.commit('s1', 'write');
    expect(seen).toEqual([{ sessionId: 's1', gitDir: join(dir, 'persisting', 's1', 'git'), commit: made.commit, base: first }]);
    expect(await tracked(p, 's1')).toContain('build/out.txt');
    const failing = new WorkspaceManager({ root: join(dir, 'failing'), persist: async () => Promise.reject(new Error('store down')) });
    const f = await failing.create('s1');
    await writeFile(join(f.path, 'x'), 'x');
    await expect(failing.commit('s1', 'x')).rejects.toThrow(/store down/);
  });

  it('materialises a workspace at a commit on another host, behind or ahead, fetching only what is missing', async () => {
    // Host A makes commits; what it persists goes to a bare "store" repository (real packs).
    const store = join(dir, 'store.git');
    await initBare(store);
    const hostA = new WorkspaceManager({ root: join(dir, 'host-a'), persist: async (s) => applyPack(store, await packCommit(s.gitDir, s.commit, s.base)) });
    const a = await hostA.create('sess');
    await applyPack(store, await packCommit(join(dir, 'host-a', 'sess', 'git'), await hostA.head('sess'), null));
    await writeFile(join(a.path, 'f.txt'), 'v1\n');
    const v1 = (await hostA.commit('sess', 'v1')).commit;
    await writeFile(join(a.path, 'f.txt'), 'v2\n');
    const v2 = (await hostA.commit('sess', 'v2')).commit;

    let fills = 0;
    // What the store has told host B about so far.
    const published = [v1];
    const fill = async (gitDir: string) => {
      fills++;
      for (const commit of published) await applyPack(gitDir, await packCommit(store, commit, null));
    };
    // Host B has nothing: it starts at v1 from the store, files owned by its own uid.
    const hostB = new WorkspaceManager({ root: join(dir, 'host-b') });
    const b = await hostB.materialise('sess', v1, fill);
    expect(await readFile(join(b.path, 'f.txt'), 'utf8')).toBe('v1\n');
    expect((await stat(join(b.path, 'f.txt'))).uid).toBe(b.uid);
    expect(await hostB.head('sess')).toBe(v1);
    // Already there and clean: nothing is fetched or rewritten.
    await hostB.materialise('sess', v1, fill);
    expect(fills).toBe(1);
    // A call that changed files here but was never recorded is undone.
    await writeFile(join(b.path, 'junk.txt'), 'junk');
    await writeFile(join(b.path, 'f.txt'), 'unrecorded\n');
    await hostB.materialise('sess', v1, fill);
    expect(fills).toBe(1);
    expect(await readFile(join(b.path, 'f.txt'), 'utf8')).toBe('v1\n');
    await expect(stat(join(b.path, 'junk.txt'))).rejects.toThrow();
    // Behind: the session moved on elsewhere; the missing commit is fetched.
    published.push(v2);
    await hostB.materialise('sess', v2, fill);
    expect(fills).toBe(2);
    expect(await readFile(join(b.path, 'f.txt'), 'utf8')).toBe('v2\n');
    // Ahead: back to an older recorded commit.
    await hostB.materialise('sess', v1, fill);
    expect(await readFile(join(b.path, 'f.txt'), 'utf8')).toBe('v1\n');
    // No recorded change yet: an empty workspace, also on a fresh host.
    const empty = await new WorkspaceManager({ root: join(dir, 'host-c') }).materialise('new', null, fill);
    expect(await readdir(empty.path)).toEqual([]);
    // A fill that cannot provide the commit fails; nothing half-made is left to be found.
    const hostD = new WorkspaceManager({ root: join(dir, 'host-d') });
    await expect(hostD.materialise('sess', v2, async () => Promise.reject(new Error('not in the store')))).rejects.toThrow(/not in the store/);
    await expect(hostD.get('sess')).rejects.toThrow(/has no workspace/);
    await expect(hostD.materialise('sess', 'abc', fill)).rejects.toThrow(/not a full commit id/);
    await expect(hostD.create('../escape')).rejects.toThrow(/invalid session id/);
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

  it('restores files from an earlier commit as a new persisted commit, whole or by path, fetching a commit this host lacks', async () => {
    const seen: WorkspaceSnapshot[] = [];
    const host = new WorkspaceManager({ root: join(dir, 'restoring'), persist: async (snapshot) => void seen.push(snapshot) });
    const w = await host.create('r1');
    await writeFile(join(w.path, 'a.txt'), 'a1');
    await mkdir(join(w.path, 'src'));
    await writeFile(join(w.path, 'src', 'b.ts'), 'b1');
    const early = (await host.commit('r1', 'early')).commit;
    await writeFile(join(w.path, 'a.txt'), 'a2');
    await rm(join(w.path, 'src'), { recursive: true });
    await writeFile(join(w.path, 'later.txt'), 'l');
    const late = (await host.commit('r1', 'late')).commit;
    seen.length = 0;
    const one = await host.restoreFrom('r1', { source: early, paths: ['src'], message: 'restore src' }, async () =>
      Promise.reject(new Error('no fill needed')),
    );
    expect(one.changed).toBe(true);
    expect(seen).toEqual([{ sessionId: 'r1', gitDir: join(dir, 'restoring', 'r1', 'git'), commit: one.commit, base: late }]);
    expect(await host.head('r1')).toBe(one.commit);
    expect(await readFile(join(w.path, 'src', 'b.ts'), 'utf8')).toBe('b1');
    expect(await readFile(join(w.path, 'a.txt'), 'utf8')).toBe('a2');
    expect((await stat(join(w.path, 'src', 'b.ts'))).uid).toBe(w.uid);
    // The whole tree, with an uncommitted leftover in the work tree: the tree is exactly the commit's.
    await writeFile(join(w.path, 'stray.txt'), 'stray');
    const all = await host.restoreFrom('r1', { source: early, paths: null, message: 'restore all' }, async () => undefined);
    expect((await readdir(w.path)).sort()).toEqual(['a.txt', 'src']);
    expect(await readFile(join(w.path, 'a.txt'), 'utf8')).toBe('a1');
    // Nothing left to change: the same commit, unchanged, persisted as one.
    expect(await host.restoreFrom('r1', { source: early, paths: null, message: 'again' }, async () => undefined)).toEqual({
      commit: all.commit,
      changed: false,
      refused: [],
    });
    // Another session's commit (a fork's ancestor) is fetched first.
    const other = await host.create('r2');
    let filled = 0;
    const fromOther = await host.restoreFrom('r2', { source: late, paths: null, message: 'from the parent' }, async (gitDir) => {
      filled++;
      await applyPack(gitDir, await packCommit(join(dir, 'restoring', 'r1', 'git'), late, null));
    });
    expect(filled).toBe(1);
    expect(fromOther.changed).toBe(true);
    expect((await readdir(other.path)).sort()).toEqual(['a.txt', 'later.txt']);
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
