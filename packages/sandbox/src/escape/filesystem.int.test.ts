// Escape suite, file system: reading host files, writing outside the workspace, symlink, `..`
// and hard-link escapes, other sessions' workspaces and the workspace's own git history.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import type { Workspace } from '../workspace/workspace-manager';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  let f: SandboxFixture;
  let other: Workspace;

  beforeAll(async () => {
    f = await sandboxFixture({ kind });
    other = await f.workspaces.create(`other-${f.workspace.sessionId}`);
    await writeFile(join(other.path, 'private.txt'), 'OTHER-SESSION-DATA');
    await f.workspaces.commit(other.sessionId, 'private');
  });
  afterAll(() => f.close());

  describe('escape: file system', () => {
    it('reading /etc/shadow fails (it is not there, and the uid is unprivileged anyway)', async () => {
      const r = await f.sh('cat /etc/shadow || cat /usr/../etc/shadow');
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).toBe('');
      expect((await f.tool('read_file', { path: '/etc/shadow' })).ok).toBe(false);
    });

    it('listing /root fails', async () => {
      const r = await f.sh('ls -la /root');
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toMatch(/No such file/);
    });

    it('writing outside the workspace fails everywhere: system dirs are read-only, the rest does not exist', async () => {
      const r = await f.sh(
        'for d in / /usr /usr/bin /etc /proc/sys/kernel /dev /run /home /sys; do touch $d/pwned 2>/dev/null && echo "WROTE $d"; done; echo done',
      );
      // runsc always gives /dev as gVisor's own in-memory directory, writable by the sandbox's uid 0 and gone with the call.
      expect(r.stdout.trim()).toBe(kind === 'gvisor' ? 'WROTE /dev\ndone' : 'done');
      expect((await f.tool('write_file', { path: '/etc/pwned', content: 'x' })).ok).toBe(false);
      expect((await f.tool('write_file', { path: '/tmp/pwned', content: 'x' })).ok).toBe(false);
    });

    it('a symlink to a host file leads nowhere inside, and the file tools refuse it', async () => {
      const r = await f.sh('ln -s /etc/shadow shadow && ln -s /root/.ssh/id_rsa key && cat shadow key');
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).toBe('');
      const read = await f.tool('read_file', { path: 'shadow' });
      expect(read.ok).toBe(false);
      expect(read.output).toMatch(/outside the workspace|dangling symlink/);
      expect((await f.tool('write_file', { path: 'key', content: 'x' })).ok).toBe(false);
    });

    it('`..` paths cannot leave the workspace (tools and shell cwd)', async () => {
      for (const path of ['../../../../etc/passwd', '/workspace/../etc/passwd', 'a/../../meta.json', '..']) {
        expect((await f.tool('read_file', { path })).ok, path).toBe(false);
      }
      for (const path of ['../pwned', '../../../../tmp/pwned', 'a/../../pwned', '/workspace/../pwned']) {
        expect((await f.tool('write_file', { path, content: 'x' })).ok, path).toBe(false);
      }
      expect((await f.tool('shell', { command: 'pwd', cwd: '../..' })).ok).toBe(false);
      expect((await f.tool('list_files', { path: '../' })).ok).toBe(false);
    });

    it('a symlinked directory cannot carry a worker-side write outside the workspace', async () => {
      await f.sh('ln -s / rootlink && ln -s /tmp tmplink && ln -s .. up');
      for (const path of ['rootlink/tmp/pwned', 'tmplink/pwned', 'up/pwned', 'up/meta.json']) {
        const w = await f.tool('write_file', { path, content: 'pwned' });
        expect(w.ok, path).toBe(false);
        expect(w.output, path).toMatch(/outside the workspace|leaves the workspace/);
      }
    });

    it('hard links to host files cannot be made, and the worker refuses files it did not give the sandbox', async () => {
      const r = await f.sh('ln /etc/passwd p1; ln /usr/bin/su su1; ln /usr/bin/passwd p2; ls');
      expect(r.stdout).not.toMatch(/p1|su1|p2/);
      // A file the sandbox uid does not own (as a hard link to a host file would be) is refused.
      await writeFile(join(f.workspace.path, 'root-owned.txt'), 'host');
      const read = await f.tool('read_file', { path: 'root-owned.txt' });
      expect(read).toEqual({ ok: false, output: 'root-owned.txt is not owned by the workspace user' });
      expect((await f.tool('edit_file', { path: 'root-owned.txt', old_string: 'host', new_string: 'x' })).ok).toBe(false);
    });

    it("reading another session's workspace fails: it is neither mounted nor readable by this uid", async () => {
      expect(other.uid).not.toBe(f.workspace.uid);
      const r = await f.sh(
        `cat ${other.path}/private.txt; ls ${join(f.dir, 'workspaces')}; grep -rs OTHER-SESSION-DATA / --exclude-dir=proc --exclude-dir=usr; echo done`,
      );
      expect(r.stdout.trim()).toBe('done');
      expect((await f.tool('read_file', { path: `${other.path}/private.txt` })).ok).toBe(false);
    });

    it("the workspace's git history cannot be reached or rewritten from inside", async () => {
      await f.tool('write_file', { path: 'kept.txt', content: 'v1' });
      const head = await f.workspaces.head(f.workspace.sessionId);
      const gitDir = join(f.dir, 'workspaces', f.workspace.sessionId, 'git');
      const r = await f.sh(`ls -a /workspace; ls ${gitDir}; rm -rf /workspace/* /workspace/.[!.]*; git init -q . 2>&1; echo done`);
      expect(r.stdout).not.toMatch(/^\.git$/m);
      expect(r.stderr).toMatch(/No such file/);
      expect(await f.workspaces.head(f.workspace.sessionId)).toBe(head);
      await f.workspaces.restore(f.workspace.sessionId);
      expect((await f.tool('read_file', { path: 'kept.txt' })).output).toBe('v1');
    });
  });
});
