import { AppError } from '@looplane/shared';
import { checkCommitId, gitScript, type GitOptions } from './git';

/** One process start for a commit: prints `base` when nothing changed, `base commit` after a new commit. */
const COMMIT_SCRIPT = `base=$(git rev-parse HEAD)
git add -A --force
if git diff --cached --quiet; then echo "$base"; exit 0; fi
git commit -q --no-verify -m "$LOOPLANE_COMMIT_MESSAGE"
echo "$base $(git rev-parse HEAD)"`;

/**
 * Commits the whole work tree, files the tree's own `.gitignore` lists included (forced: an
 * ignore file the agent wrote must not keep its files out of the store, they would be lost on
 * another host). Returns the commit it was made on and the new commit; `commit` is null when
 * nothing changed (no empty commit is made).
 */
export async function commitWorkTree(options: GitOptions & { workTree: string }, message: string): Promise<{ base: string; commit: string | null }> {
  const { stdout } = await gitScript(COMMIT_SCRIPT, options, { LOOPLANE_COMMIT_MESSAGE: message.slice(0, 1000) || 'tool call' });
  const [base, commit] = stdout.trim().split(' ');
  if (!base) throw new AppError('INTERNAL', 'the workspace commit printed nothing');
  return { base: checkCommitId(base), commit: commit ? checkCommitId(commit) : null };
}
