import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoRepositoryPath, ensureDemoRepository } from './demo-repository';

const parent = await mkdtemp(join(tmpdir(), 'looplane-demo-repo-'));
afterAll(() => rm(parent, { recursive: true, force: true }));

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const options = (home: string) => ({ home, env, signal: new AbortController().signal, logDir: parent });

/** Runs a program with no user configuration; the test fails on a git error, not later. */
function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...env, HOME: cwd, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}
const git = (cwd: string, ...args: string[]) => {
  const result = run('git', args, cwd);
  expect(result.code, result.output).toBe(0);
  return result.output.trim();
};

describe('the demo repository of looplane start', () => {
  it('is a bare repository on main whose npm test fails until slugify gets its g flag, and npm leaves no files', async () => {
    const home = join(parent, 'home');
    expect(await ensureDemoRepository(options(home))).toEqual({ path: demoRepositoryPath(home), created: true });
    const bare = join(home, 'repos', 'demo-repo.git');
    expect(git(bare, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(git(bare, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(git(bare, 'log', '--format=%an <%ae> %cI %s', 'main')).toBe(
      'Looplane <demo@looplane.invalid> 2025-01-01T00:00:00+00:00 slugify, with a failing test',
    );

    const clone = join(parent, 'clone');
    git(parent, 'clone', '-q', `file://${bare}`, clone);
    expect(await readFile(join(clone, 'AGENTS.md'), 'utf8')).toContain('npm test');
    const failing = run('npm', ['test'], clone);
    expect(failing.code, failing.output).not.toBe(0);
    expect(failing.output).toMatch(/pass 1\n\S+ fail 2/);

    const source = join(clone, 'src/slugify.js');
    await writeFile(source, (await readFile(source, 'utf8')).replace(".replace(/[^a-z0-9]+/, '-')", ".replace(/[^a-z0-9]+/g, '-')"));
    const passing = run('npm', ['test'], clone);
    expect(passing.code, passing.output).toBe(0);
    // HOME is the work tree here, as in the sandbox: npm's cache and logs stay out of it.
    expect(git(clone, 'status', '--porcelain', '--untracked-files=all')).toBe('M src/slugify.js');
  });

  it('is made the same on every machine, and never touched once it exists', async () => {
    const [a, b] = [join(parent, 'a'), join(parent, 'b')];
    await ensureDemoRepository(options(a));
    await ensureDemoRepository(options(b));
    const head = git(demoRepositoryPath(a), 'rev-parse', 'main');
    expect(git(demoRepositoryPath(b), 'rev-parse', 'main')).toBe(head);

    // What the demo agent pushed stays.
    git(demoRepositoryPath(a), 'update-ref', 'refs/heads/fix/slugify', head);
    expect(await ensureDemoRepository(options(a))).toEqual({ path: demoRepositoryPath(a), created: false });
    expect(git(demoRepositoryPath(a), 'rev-parse', 'fix/slugify')).toBe(head);
  });

  it('is left out when git is not installed', async () => {
    expect(await ensureDemoRepository({ ...options(join(parent, 'no-git')), env: { PATH: parent } })).toBeNull();
  });
});
