import { checkCommitId, git, type GitOptions } from './git';

/**
 * A `git format-patch` series (mbox, one message per stored commit that changed files) of what a
 * workspace changed from `base` to `head`, with `base..head` read from a repository that holds
 * both. Binary changes are included (`--binary`), so `git am` reproduces the files exactly.
 * Empty when nothing changed.
 */
export async function formatPatch(options: GitOptions, base: string, head: string): Promise<string> {
  const { stdout } = await git(
    ['format-patch', '--stdout', '--binary', '--no-signature', '--no-stat', '--full-index', '--no-color', `${checkCommitId(base)}..${checkCommitId(head)}`],
    { ...options, timeoutMs: options.timeoutMs ?? 120_000 },
  );
  return stdout;
}
