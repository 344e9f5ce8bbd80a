import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanGitEnv, runCommand } from './run-command';

/** File contents by slash-separated path relative to the repository root. */
export type RepositoryFiles = Record<string, string | Buffer>;

export interface BareRepositoryOptions {
  /** The branch HEAD names and the first commit lands on. */
  branch?: string;
  /**
   * More branches, each one commit on top of the first commit that writes the given files over
   * it (an empty record makes the branch point at the first commit itself).
   */
  extraBranches?: Record<string, RepositoryFiles>;
  /** Lightweight tags on the first commit. */
  tags?: string[];
}

export interface BareRepository {
  /** Absolute path of the bare repository (`<root>/<name>.git`). */
  path: string;
  /** The first commit, on `branch`. */
  headCommit: string;
  /** Every branch's commit, `branch` included. */
  branches: Record<string, string>;
}

/** `widgets` → `widgets.git`; a name that already ends in `.git` stays as it is. */
export function repositoryDirName(name: string): string {
  return name.endsWith('.git') ? name : `${name}.git`;
}

// Fixed identity and dates (and no global or system config) so the same files give the same hashes.
const COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'Looplane Test',
  GIT_AUTHOR_EMAIL: 'test@looplane.invalid',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'Looplane Test',
  GIT_COMMITTER_EMAIL: 'test@looplane.invalid',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

async function writeFiles(dir: string, files: RepositoryFiles): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content, { mode: 0o644 });
  }
}

/**
 * Makes a bare repository at `<root>/<name>.git` with the real git CLI: one commit of `files` on
 * `branch`, optional extra branches and tags. Pushing over HTTP is enabled (`http.receivepack`).
 */
export async function createBareRepository(root: string, name: string, files: RepositoryFiles, options: BareRepositoryOptions = {}): Promise<BareRepository> {
  const branch = options.branch ?? 'main';
  const path = join(root, repositoryDirName(name));
  const env = cleanGitEnv(COMMIT_ENV);
  const git = (args: string[], workTree?: string) =>
    workTree
      ? runCommand('git', ['--git-dir', path, '--work-tree', workTree, ...args], { env, cwd: workTree })
      : runCommand('git', ['--git-dir', path, ...args], { env });

  await mkdir(root, { recursive: true });
  await runCommand('git', ['init', '--quiet', '--bare', `--initial-branch=${branch}`, path], { env });
  await git(['config', 'http.receivepack', 'true']);

  // The bare repository's own index is used for the commits and removed afterwards.
  const commitOn = async (tree: RepositoryFiles, ref: string, parent: string | null, message: string) => {
    const workTree = await mkdtemp(join(tmpdir(), 'looplane-bare-'));
    try {
      await writeFiles(workTree, tree);
      await git(['read-tree', parent ?? '--empty'], workTree);
      // Files of the parent that this tree does not mention stay as they were.
      await git(['add', '--ignore-removal', '.'], workTree);
      const treeId = (await git(['write-tree'], workTree)).trim();
      const commit = (await git(['commit-tree', treeId, '-m', message, ...(parent ? ['-p', parent] : [])], workTree)).trim();
      await git(['update-ref', `refs/heads/${ref}`, commit]);
      return commit;
    } finally {
      await rm(workTree, { recursive: true, force: true });
      await rm(join(path, 'index'), { force: true });
    }
  };

  const headCommit = await commitOn(files, branch, null, 'Initial commit');
  const branches: Record<string, string> = { [branch]: headCommit };
  for (const [name, extra] of Object.entries(options.extraBranches ?? {})) {
    if (Object.keys(extra).length === 0) {
      await git(['update-ref', `refs/heads/${name}`, headCommit]);
      branches[name] = headCommit;
    } else {
      branches[name] = await commitOn(extra, name, headCommit, `Branch ${name}`);
    }
  }
  for (const tag of options.tags ?? []) await git(['update-ref', `refs/tags/${tag}`, headCommit]);
  return { path, headCommit, branches };
}
