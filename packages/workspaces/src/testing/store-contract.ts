import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../git';
import { restoreCommit, SnapshotWriter } from '../snapshots';
import { WorkspaceReader } from '../workspace-reader';
import type { WorkspaceStore } from '../workspace-store';
import { makeRepo, writeAndCommit } from './repo-fixture';

export interface StoreFixture {
  store: WorkspaceStore;
  /** A run id the store may write under (a Run row exists for it). */
  newRun: () => Promise<string>;
  /** Marks a run finished at `finishedAt` (for retention). */
  finishRun: (runId: string, finishedAt: Date) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The behaviour every WorkspaceStore driver must have, through the real snapshot writer, restore
 * and reader (real git, the driver's real backend).
 */
export function describeWorkspaceStore(name: string, setup: () => Promise<StoreFixture>): void {
  describe(`workspace store: ${name}`, () => {
    let fx: StoreFixture;
    let scratch: string;
    beforeAll(async () => {
      fx = await setup();
      scratch = await mkdtemp(join(tmpdir(), 'looplane-store-'));
    });
    afterAll(async () => {
      await fx?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('stores each commit relative to the last and restores any of them into an empty repository', async () => {
      const runId = await fx.newRun();
      const repo = await makeRepo();
      const writer = new SnapshotWriter(fx.store);
      const first = await repo.head();
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: first, base: null });
      const a = await writeAndCommit(repo, { 'a.txt': 'alpha\n', 'dir/b.bin': Buffer.from([0, 1, 2, 255]) });
      const bytesA = await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: a.commit, base: a.parent });
      const b = await writeAndCommit(repo, { 'a.txt': 'alpha beta\n', 'dir/b.bin': null });
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: b.commit, base: b.parent });
      expect(bytesA).toBeGreaterThan(0);
      // Saving again adds nothing.
      expect(await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: b.commit, base: b.parent })).toBe(0);

      const chain = await fx.store.chain(runId, b.commit);
      expect(chain.map((e) => e.commit)).toEqual([b.commit, a.commit, first]);
      expect(chain.map((e) => e.depth)).toEqual([2, 1, 0]);
      expect(await fx.store.has(runId, a.commit)).toBe(true);
      expect(await fx.store.has(runId, 'f'.repeat(40))).toBe(false);
      expect(await fx.store.chain(runId, 'f'.repeat(40))).toEqual([]);

      const target = join(scratch, `${runId}-restore.git`);
      await git(['init', '-q', '--bare', target], { gitDir: target });
      expect(await restoreCommit(fx.store, target, runId, a.commit)).toBe(true);
      expect((await git(['show', `${a.commit}:a.txt`], { gitDir: target })).stdout).toBe('alpha\n');
      // A later commit fetches only what is missing.
      expect(await restoreCommit(fx.store, target, runId, b.commit)).toBe(true);
      expect((await git(['show', `${b.commit}:a.txt`], { gitDir: target })).stdout).toBe('alpha beta\n');
      expect(await restoreCommit(fx.store, target, runId, 'e'.repeat(40))).toBe(false);
      await repo.cleanup();
    });

    it('serves listings, files, diffs and tarballs through the reader', async () => {
      const runId = await fx.newRun();
      const repo = await makeRepo();
      const writer = new SnapshotWriter(fx.store);
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: await repo.head(), base: null });
      const a = await writeAndCommit(repo, { 'src/app.ts': 'export const x = 1;\n', 'README.md': '# hi\n', 'bin.dat': Buffer.from([0, 159, 146, 150]) });
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: a.commit, base: a.parent });
      const b = await writeAndCommit(repo, { 'src/app.ts': 'export const x = 2;\n' });
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: b.commit, base: b.parent });

      const reader = new WorkspaceReader({ store: fx.store, cacheDir: join(scratch, `reader-${runId}`) });
      const root = await reader.node(runId, b.commit, '', 1000);
      expect(root.kind === 'dir' && root.entries.map((e) => [e.path, e.type])).toEqual([
        ['src', 'dir'],
        ['README.md', 'file'],
        ['bin.dat', 'file'],
      ]);
      const file = await reader.node(runId, a.commit, 'src/app.ts', 1000);
      expect(file).toMatchObject({ kind: 'file', encoding: 'utf8', content: 'export const x = 1;\n', truncated: false });
      const cut = await reader.node(runId, b.commit, 'src/app.ts', 5);
      expect(cut).toMatchObject({ kind: 'file', content: 'expor', truncated: true, size: 20 });
      const binary = await reader.node(runId, b.commit, 'bin.dat', 1000);
      expect(binary).toMatchObject({ kind: 'file', encoding: 'base64', content: Buffer.from([0, 159, 146, 150]).toString('base64') });
      await expect(reader.node(runId, b.commit, 'missing.txt', 10)).rejects.toThrow(/does not exist/);
      await expect(reader.node(runId, b.commit, '../etc/passwd', 10)).rejects.toThrow();
      const empty = await reader.node(runId, null, '', 10);
      expect(empty).toEqual({ kind: 'dir', path: '', entries: [] });
      expect(await reader.diff(runId, a.commit, b.commit)).toContain('+export const x = 2;');
      const chunks: Buffer[] = [];
      for await (const chunk of await reader.archive(runId, b.commit)) chunks.push(chunk as Buffer);
      const tar = gunzipSync(Buffer.concat(chunks)).toString('latin1');
      expect(tar).toContain('src/app.ts');
      expect(tar).toContain('export const x = 2;');
      await repo.cleanup();
    });

    it('bounds a chain with a self-contained pack every maxDepth commits', async () => {
      const runId = await fx.newRun();
      const repo = await makeRepo();
      const writer = new SnapshotWriter(fx.store, 4);
      let head = await repo.head();
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: head, base: null });
      for (let i = 0; i < 10; i++) {
        const next = await writeAndCommit(repo, { 'n.txt': `${i}\n` });
        await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: next.commit, base: next.parent });
        head = next.commit;
      }
      const chain = await fx.store.chain(runId, head);
      expect(chain.map((e) => e.depth)).toEqual([2, 1, 0]);
      expect(chain[chain.length - 1]!.base).toBeNull();
      const target = join(scratch, `${runId}-bounded.git`);
      await git(['init', '-q', '--bare', target], { gitDir: target });
      expect(await restoreCommit(fx.store, target, runId, head)).toBe(true);
      expect((await git(['show', `${head}:n.txt`], { gitDir: target })).stdout).toBe('9\n');
      await repo.cleanup();
    });

    it("retention removes a run's packs, says why, and restores then fail", async () => {
      const runId = await fx.newRun();
      const repo = await makeRepo();
      const writer = new SnapshotWriter(fx.store);
      const a = await writeAndCommit(repo, { 'f.txt': 'x\n' });
      await writer.save({ gitDir: repo.gitDir, runId, sessionId: 's1', commit: a.commit, base: null });
      await fx.finishRun(runId, new Date(Date.now() - 10 * 86_400_000));
      expect(await fx.store.expiredRuns(new Date(Date.now() - 86_400_000), 1000)).toContain(runId);
      await fx.store.removeRun(runId, 'kept 7 days after the run ended');
      await fx.store.removeRun(runId, 'again'); // idempotent
      expect(await fx.store.expiredRuns(new Date(), 1000)).not.toContain(runId);
      expect(await fx.store.chain(runId, a.commit)).toEqual([]);
      expect((await fx.store.removal(runId))?.reason).toBe('kept 7 days after the run ended');
      const reader = new WorkspaceReader({ store: fx.store, cacheDir: join(scratch, `reader-${runId}`) });
      await expect(reader.node(runId, a.commit, '', 10)).rejects.toThrow(/removed on .*kept 7 days/);
      await repo.cleanup();
    });
  });
}
