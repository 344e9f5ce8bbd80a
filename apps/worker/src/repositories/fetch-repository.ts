import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitSource } from '@looplane/engine';
import { remoteFailure, type RemoteGit } from './remote-git';

/** A fetch that could not give the files, with the reason a person can act on. */
export class SeedFailure extends Error {}

export interface FetchedRepository {
  /** The repository's commit now checked out. */
  revision: string;
  /** The branch it is on (the ref asked for, or the remote's default); null for a tag or a commit. */
  branch: string | null;
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * Puts a repository's files at `source.ref` (default: the remote's HEAD) into `workTree`, with the
 * repository in `workTree/.git` whose `origin` is the URL as given: the credential travels only in
 * the environment of the worker's own git, so it is in no file of the work tree. Runs before
 * anything sandboxed touches the tree. Throws {@link SeedFailure} naming the cause.
 */
export async function fetchRepository(remote: RemoteGit, source: GitSource, workTree: string, timeoutMs: number): Promise<FetchedRepository> {
  const at = { cwd: workTree, timeoutMs };
  const must = async (args: string[], what: string) => {
    const result = await remote.run(args, at);
    if (result.code !== 0) throw new SeedFailure(remoteFailure(what, source.url, result));
    return result.stdout;
  };
  await must(['init', '-q'], 'git init');
  await must(['remote', 'add', 'origin', source.url], 'git remote add');
  let ref = source.ref ?? null;
  let branch: string | null = null;
  let headBranch = false;
  // One listing answers both questions: the remote's default branch, and whether `ref` is a branch.
  const listed = await must(['ls-remote', '--symref', 'origin', 'HEAD', ...(ref && !COMMIT.test(ref) ? [ref] : [])], 'reading the remote');
  if (!ref) {
    const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listed);
    if (!symref) {
      if (listed.trim() === '') throw new SeedFailure(`the repository at ${source.url} is empty (it has no HEAD)`);
      throw new SeedFailure(`the remote HEAD of ${source.url} names no branch; give a ref`);
    }
    ref = symref[1]!;
    headBranch = true;
  }
  const short = ref.replace(/^refs\/heads\//, '');
  const isBranch = headBranch || listed.split('\n').some((line) => line.endsWith(`\trefs/heads/${short}`));
  const depth = ['--depth', String(source.depth ?? 1)];
  // Attributes of the repository must not rewrite what is checked out (no filters, eol or ident):
  // the files are the repository's bytes. Removed again after the checkout.
  const attributes = join(workTree, '.git', 'info', 'attributes');
  await writeFile(attributes, '* -text -eol -filter -ident -working-tree-encoding\n');
  if (COMMIT.test(ref)) {
    const byId = await remote.run(['fetch', '-q', '--no-tags', ...depth, 'origin', ref], at);
    // A server that refuses a commit by id: fetch its branches and tags, then look for it.
    if (byId.code !== 0)
      await must(['fetch', '-q', '--no-tags', 'origin', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'], `fetching ${ref}`);
    const known = await remote.run(['cat-file', '-e', `${ref}^{commit}`], at);
    if (known.code !== 0) throw new SeedFailure(`commit ${ref} does not exist in ${source.url}`);
    await must(['checkout', '-q', '--detach', ref], `checking out ${ref}`);
  } else {
    const fetched = await remote.run(['fetch', '-q', '--no-tags', ...depth, 'origin', ref], at);
    if (fetched.code !== 0) {
      const message = remoteFailure(`fetching ${ref}`, source.url, fetched);
      throw new SeedFailure(/does not exist/.test(message) ? `ref ${ref} does not exist in ${source.url}` : message);
    }
    if (isBranch) {
      branch = short;
      await must(['checkout', '-q', '-B', branch, 'FETCH_HEAD'], `checking out ${ref}`);
      await remote.run(['update-ref', `refs/remotes/origin/${branch}`, 'HEAD'], at);
      await remote.run(['branch', '-q', '--set-upstream-to', `origin/${branch}`], at);
    } else await must(['checkout', '-q', '--detach', 'FETCH_HEAD'], `checking out ${ref}`);
  }
  await rm(attributes, { force: true });
  const revision = (await must(['rev-parse', 'HEAD'], 'reading the checked-out commit')).trim();
  return { revision, branch };
}
