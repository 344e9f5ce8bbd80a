import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { findOnPath } from './redis-binary';
import { runCommand } from './run-command';

/** Where the demo's bare repository lives: the demo policy allows every repository in its directory. */
export function demoRepositoryPath(home: string): string {
  return join(home, 'repos', 'demo-repo.git');
}

/** One author and one date: the same files make the same commit on every machine. */
const AUTHOR = { name: 'Looplane', email: 'demo@looplane.invalid', date: '2025-01-01T00:00:00Z' };

export interface DemoRepositoryOptions {
  home: string;
  /** The variables git may inherit (PATH, locale); the user's git configuration is never read. */
  env: Record<string, string>;
  signal: AbortSignal;
  logDir: string;
}

/**
 * Makes the demo's bare repository (`<home>/repos/demo-repo.git`, branch main, one commit of
 * @looplane/db's DEMO_REPOSITORY_FILES) with the host's git, unless it exists: the demo agent pushes its
 * branches there, so an existing one is never touched. It is built beside its final path and
 * renamed into place, so a start cut short leaves no half-made repository. Resolves to its path,
 * or null when git is not installed (the host-package check has said so already).
 */
export async function ensureDemoRepository(options: DemoRepositoryOptions): Promise<{ path: string; created: boolean } | null> {
  const path = demoRepositoryPath(options.home);
  if (existsSync(path)) return { path, created: false };
  const gitBinary = findOnPath('git', options.env.PATH);
  if (!gitBinary) return null;
  const { DEMO_REPOSITORY_FILES } = await import('@looplane/db');
  await mkdir(dirname(path), { recursive: true });
  const staging = await mkdtemp(join(dirname(path), '.demo-repo-'));
  try {
    const bare = join(staging, 'repo.git');
    const files = join(staging, 'files');
    for (const [name, content] of Object.entries(DEMO_REPOSITORY_FILES)) {
      await mkdir(dirname(join(files, name)), { recursive: true });
      await writeFile(join(files, name), content);
    }
    const env = {
      PATH: options.env.PATH ?? '/usr/bin:/bin',
      HOME: staging,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: AUTHOR.name,
      GIT_AUTHOR_EMAIL: AUTHOR.email,
      GIT_AUTHOR_DATE: AUTHOR.date,
      GIT_COMMITTER_NAME: AUTHOR.name,
      GIT_COMMITTER_EMAIL: AUTHOR.email,
      GIT_COMMITTER_DATE: AUTHOR.date,
    };
    const git = (args: string[]) =>
      runCommand({
        name: 'git',
        command: gitBinary,
        args: ['-c', 'init.defaultBranch=main', '-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', ...args],
        cwd: staging,
        env,
        signal: options.signal,
        logFile: join(options.logDir, 'demo-repository.log'),
      });
    await git(['init', '-q', '--bare', bare]);
    const inRepo = ['--git-dir', bare, '--work-tree', files];
    await git([...inRepo, 'add', '--all']);
    await git([...inRepo, 'commit', '-q', '-m', 'slugify, with a failing test']);
    // A bare repository keeps no index; this one was only the commit's staging area.
    await rm(join(bare, 'index'), { force: true });
    await rename(bare, path);
    return { path, created: true };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
