import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git } from '../git';

/** A throwaway repository laid out like a session workspace (git dir beside the work tree). */
export async function makeRepo(): Promise<{ gitDir: string; workTree: string; head: () => Promise<string>; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-repo-'));
  const gitDir = join(dir, 'git');
  const workTree = join(dir, 'work');
  await mkdir(workTree, { recursive: true });
  await git(['init', '-q', '-b', 'main', gitDir], { gitDir });
  await git(['commit', '-q', '--allow-empty', '-m', 'workspace created'], { gitDir, workTree });
  return {
    gitDir,
    workTree,
    head: async () => (await git(['rev-parse', 'HEAD'], { gitDir })).stdout.trim(),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Writes files (null deletes) and commits; returns the new commit and its parent. */
export async function writeAndCommit(
  repo: { gitDir: string; workTree: string },
  files: Record<string, string | Buffer | null>,
): Promise<{ commit: string; parent: string }> {
  const options = { gitDir: repo.gitDir, workTree: repo.workTree };
  const parent = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
  for (const [path, content] of Object.entries(files)) {
    const target = join(repo.workTree, path);
    if (content === null) await rm(target, { force: true });
    else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
  await git(['add', '-A'], options);
  await git(['commit', '-q', '--allow-empty', '-m', 'change'], options);
  return { commit: (await git(['rev-parse', 'HEAD'], options)).stdout.trim(), parent };
}
