import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecSchema } from '@looplane/engine';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';

let f: SandboxFixture;
beforeAll(async () => {
  f = await sandboxFixture();
});
afterAll(() => f.close());

describe('built-in tools', () => {
  it('are valid catalogue entries with the right idempotency', () => {
    const specs = Object.values(f.tools).map((t) => toolSpecSchema.parse(t.spec));
    expect(Object.fromEntries(specs.map((s) => [s.name, s.idempotent]))).toEqual({
      shell: false,
      read_file: true,
      write_file: false,
      edit_file: false,
      list_files: true,
      search_files: true,
      http_request: false,
    });
    expect(f.tools.read_file?.spec.parameters).toMatchObject({ type: 'object', required: ['path'], additionalProperties: false });
  });

  it('shell runs a command line or argv, reports exit code and both streams, and commits', async () => {
    const before = await f.workspaces.head(f.workspace.sessionId);
    const r = await f.tool('shell', { command: 'echo made > made.txt; echo out; echo err >&2; exit 3' });
    expect(r.ok).toBe(false);
    expect(r.output).toBe('exit code: 3\n--- stdout ---\nout\n\n--- stderr ---\nerr\n');
    expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(r.commit).not.toBe(before);
    const argv = await f.tool('shell', { argv: ['printf', '%s|', 'a b', '$HOME', ';rm'] });
    expect(argv).toMatchObject({ ok: true, output: 'exit code: 0\n--- stdout ---\na b|$HOME|;rm|', commit: r.commit });
  });

  it('shell refuses calls that give both or neither of command and argv', async () => {
    expect((await f.tool('shell', {})).output).toMatch(/exactly one of command and argv/);
    expect((await f.tool('shell', { command: 'x', argv: ['y'] })).ok).toBe(false);
  });

  it('write_file, read_file and edit_file work on workspace files, owned by the session uid', async () => {
    const w = await f.tool('write_file', { path: 'src/deep/a.ts', content: 'const a = 1;\nconst b = 1;\n' });
    expect(w).toMatchObject({ ok: true, output: 'wrote 26 bytes to src/deep/a.ts' });
    expect(w.commit).toMatch(/^[0-9a-f]{40}$/);
    for (const p of ['src', 'src/deep', 'src/deep/a.ts']) expect((await stat(join(f.workspace.path, p))).uid).toBe(f.workspace.uid);
    expect(await f.tool('read_file', { path: '/workspace/src/deep/a.ts' })).toEqual({ ok: true, output: 'const a = 1;\nconst b = 1;\n' });
    expect((await f.tool('read_file', { path: 'src/deep/a.ts', offset: 2, limit: 1 })).output).toBe('[src/deep/a.ts: lines 2-2 of 3]\nconst b = 1;');
    expect((await f.tool('edit_file', { path: 'src/deep/a.ts', old_string: '= 1', new_string: '= 2' })).output).toMatch(/occurs 2 times/);
    expect((await f.tool('edit_file', { path: 'src/deep/a.ts', old_string: 'nope', new_string: 'x' })).output).toMatch(/was not found/);
    const edit = await f.tool('edit_file', { path: 'src/deep/a.ts', old_string: 'const b = 1', new_string: 'const b = $&2' });
    expect(edit.ok).toBe(true);
    expect(await readFile(join(f.workspace.path, 'src/deep/a.ts'), 'utf8')).toBe('const a = 1;\nconst b = $&2;\n');
    expect((await f.tool('edit_file', { path: 'src/deep/a.ts', old_string: 'const', new_string: 'let', replace_all: true })).output).toBe(
      'replaced 2 occurrences in src/deep/a.ts',
    );
    expect(
      await f.workspaces.diff(
        { sessionId: f.workspace.sessionId, commit: w.commit! },
        { sessionId: f.workspace.sessionId, commit: await f.workspaces.head(f.workspace.sessionId) },
      ),
    ).toContain('+let b = $&2;');
  });

  it('read_file refuses missing, binary and directory paths as tool failures', async () => {
    expect(await f.tool('read_file', { path: 'missing.txt' })).toEqual({ ok: false, output: 'no such file: missing.txt' });
    await f.tool('shell', { command: 'head -c 100 /dev/urandom > bin.dat; printf "a\\0b" >> bin.dat' });
    expect((await f.tool('read_file', { path: 'bin.dat' })).output).toMatch(/looks binary/);
    expect((await f.tool('read_file', { path: 'src' })).ok).toBe(false);
    expect((await f.tool('read_file', {})).output).toMatch(/^invalid arguments/);
  });

  it('list_files shows dirs, sizes and symlinks without following them', async () => {
    await f.tool('shell', { command: 'ln -sf /etc/passwd src/link' });
    const r = await f.tool('list_files', { path: 'src', depth: 3 });
    expect(r.output).toBe('deep/\ndeep/a.ts (24 bytes)\nlink -> /etc/passwd');
  });

  it('file tools refuse a FIFO at once, by its type, and never block on it', async () => {
    // However a FIFO got into the tree, the worker must not open it blocking (it runs as root,
    // on a thread of its own pool): reading and writing answer at once, naming what is there. A
    // blocking open would never return, and the test would time out.
    execFileSync('mkfifo', [join(f.workspace.path, 'pipe')]);
    await mkdir(join(f.workspace.path, 'via'), { recursive: true });
    await symlink('../pipe', join(f.workspace.path, 'via', 'link'));
    expect(await f.tool('read_file', { path: 'pipe' })).toEqual({
      ok: false,
      output: 'pipe is a FIFO (named pipe), not a regular file; refusing to read or write it',
    });
    expect((await f.tool('read_file', { path: 'via/link' })).output).toMatch(/^pipe is a FIFO/);
    expect((await f.tool('write_file', { path: 'pipe', content: 'x' })).output).toMatch(/pipe is not a regular file \(a FIFO or socket\)/);
    expect((await f.tool('edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' })).output).toMatch(/FIFO/);
    expect((await f.tool('list_files', { path: '.', depth: 1 })).output).toContain('pipe (a FIFO (named pipe))');
    await rm(join(f.workspace.path, 'pipe'));
    await rm(join(f.workspace.path, 'via'), { recursive: true });
  });

  it('search_files greps the workspace with paths relative to it', async () => {
    const r = await f.tool('search_files', { pattern: 'let [ab]', glob: '*.ts' });
    expect(r).toEqual({ ok: true, output: 'src/deep/a.ts:1:let a = 1;\nsrc/deep/a.ts:2:let b = $&2;' });
    expect(await f.tool('search_files', { pattern: 'LET A', ignore_case: true, path: 'src/deep' })).toEqual({ ok: true, output: 'src/deep/a.ts:1:let a = 1;' });
    expect(await f.tool('search_files', { pattern: 'no-such-text-anywhere' })).toEqual({ ok: true, output: 'no matches' });
    expect((await f.tool('search_files', { pattern: '(' })).ok).toBe(false);
  });

  it('a session without a workspace is an infrastructure error (the worker creates or forks one first)', async () => {
    await expect(f.tools.read_file!.run({ path: 'a' }, { sessionId: 'never-created' })).rejects.toThrow(/has no workspace/);
  });

  it('http_request without an egress proxy fails as a tool result', async () => {
    expect(await f.tool('http_request', { url: 'https://example.com/' })).toEqual({ ok: false, output: 'this run has no network access (no egress proxy)' });
    expect((await f.tool('http_request', { url: 'file:///etc/passwd' })).ok).toBe(false);
  });
});
