import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResult } from '@looplane/engine';
import { isSourceAllowed, type PolicyDocument } from '@looplane/policy';
import { remoteFailure, RemoteGit } from '../repositories/remote-git';
import type { RemoteGitResult, RepositoryCredential } from '../repositories/remote-git';
import { allowsDefaultBranch, branchNameProblem } from './branch-name';
import type { RepositorySeed } from './run-seed';

export interface PublishRequest {
  seed: RepositorySeed;
  branch: string;
  message: string;
  runId: string;
  policy: PolicyDocument;
  credential: RepositoryCredential | null;
  /** The worker's git dir of the session's workspace, and its current commit (the files to publish). */
  sessionGitDir: string;
  head: string;
  timeoutMs: number;
}

const fail = (output: string): ToolResult => ({ ok: false, output });
const alreadyHolds = (branch: string, url: string, tip: string): ToolResult => ({
  ok: true,
  output: `${branch} on ${url} already holds these files (at ${tip}); nothing to push.`,
});
type Git = (args: string[]) => Promise<RemoteGitResult>;

/**
 * Whether `branch` on `url` now holds exactly `tree` on top of `parent`: after a refused push, the
 * same call's earlier push may have landed meanwhile (a worker killed -9 mid-push leaves its git
 * running, and that push can land while the re-run on another worker builds its own). Then the
 * call's work is done. The tip that holds it, or null.
 */
async function landedMeanwhile(git: Git, url: string, branch: string, parent: string, tree: string): Promise<string | null> {
  const refs = await git(['ls-remote', url, `refs/heads/${branch}`]);
  const tip = /^([0-9a-f]{40,64})\t/m.exec(refs.stdout)?.[1];
  if (refs.code !== 0 || !tip) return null;
  if ((await git(['fetch', '-q', '--no-tags', '--depth=200', url, `refs/heads/${branch}`])).code !== 0) return null;
  const holds = (await git(['rev-parse', `${tip}^{tree}`])).stdout.trim() === tree;
  return holds && (await git(['merge-base', '--is-ancestor', parent, tip])).code === 0 ? tip : null;
}

/**
 * Pushes the session's files to the seeded repository's remote as `branch`: a commit whose tree is
 * the workspace's and whose parent is the commit the run started from (or the branch's tip, when
 * an earlier publish of this run made it), built in a scratch repository of the worker's from the
 * workspace's own objects, with the credential only in the worker's git environment. Never forced,
 * so a branch that moved elsewhere is refused; the remote's default branch only when a policy rule
 * names it. Pushing the same files again is a no-op that succeeds, so a push cut short by a worker
 * crash is retried safely: the remote gets the branch once, or not at all (and a retry that loses
 * the race to the cut-short push, landing meanwhile, finds the files there and succeeds).
 */
export async function publishBranch(request: PublishRequest): Promise<ToolResult> {
  const { seed, branch } = request;
  const problem = branchNameProblem(branch);
  if (problem) return fail(`not pushed: ${problem}`);
  if (request.message.trim() === '') return fail('not pushed: give a commit message');
  const allowed = isSourceAllowed(request.policy.workspace.sources, seed.url);
  if (!allowed.allowed) return fail(`not pushed: the team policy refuses this repository: ${allowed.reason}`);
  const remote = await RemoteGit.open(request.credential);
  const scratch = await mkdtemp(join(tmpdir(), 'looplane-publish-'));
  try {
    const gitDir = join(scratch, 'repo.git');
    const at = { gitDir, timeoutMs: request.timeoutMs, extraEnv: { GIT_ALTERNATE_OBJECT_DIRECTORIES: join(request.sessionGitDir, 'objects') } };
    const git: Git = (args) => remote.run(args, at);
    await remote.run(['init', '-q', '--bare', gitDir], { timeoutMs: request.timeoutMs });
    const refs = await git(['ls-remote', '--symref', seed.url, 'HEAD', `refs/heads/${branch}`]);
    if (refs.code !== 0) return fail(`not pushed: ${remoteFailure('reading the remote', seed.url, refs)}`);
    const defaultBranch = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(refs.stdout)?.[1] ?? null;
    if (branch === defaultBranch && !allowsDefaultBranch(request.policy, branch)) {
      return fail(
        `not pushed: ${branch} is the default branch of ${seed.url}; publish to a new branch, or an admin adds a policy rule for publish_branch with args.branch: ${branch}`,
      );
    }
    const tip = new RegExp(`^([0-9a-f]{40,64})\\trefs/heads/${branch.replace(/[.+]/g, '\\$&')}$`, 'm').exec(refs.stdout)?.[1] ?? null;
    const fetched = await git(['fetch', '-q', '--no-tags', '--depth=1', seed.url, seed.revision]);
    if (fetched.code !== 0) return fail(`not pushed: ${remoteFailure(`fetching the run's starting commit ${seed.revision.slice(0, 12)}`, seed.url, fetched)}`);
    let parent = seed.revision;
    if (tip) {
      // The branch exists: extend it only when it builds on where the run started (an earlier publish).
      const got = await git(['fetch', '-q', '--no-tags', '--depth=200', seed.url, `refs/heads/${branch}`]);
      if (got.code !== 0) return fail(`not pushed: ${remoteFailure(`fetching ${branch}`, seed.url, got)}`);
      const builds = await git(['merge-base', '--is-ancestor', seed.revision, tip]);
      if (builds.code !== 0)
        return fail(`not pushed: ${branch} exists on ${seed.url} and does not build on the commit this run started from; choose another branch name`);
      parent = tip;
    }
    const tree = (await git(['rev-parse', `${request.head}^{tree}`])).stdout.trim();
    const parentTree = (await git(['rev-parse', `${parent}^{tree}`])).stdout.trim();
    if (!tree) return fail("not pushed: the workspace's files could not be read");
    if (tree === parentTree) {
      return tip ? alreadyHolds(branch, seed.url, tip) : fail('not pushed: the files are as the run started; there is nothing to publish');
    }
    const made = await git(['commit-tree', tree, '-p', parent, '-m', `${request.message.trim()}\n\nLooplane-Run: ${request.runId}`]);
    if (made.code !== 0) return fail(`not pushed: the commit could not be made (${made.stderr.trim().slice(0, 300)})`);
    const commit = made.stdout.trim();
    const stat = (await git(['diff', '--stat=120', '--no-color', '--no-ext-diff', parent, commit])).stdout.trim();
    const pushed = await git(['push', '--porcelain', seed.url, `${commit}:refs/heads/${branch}`]);
    if (pushed.code !== 0) {
      const landed = await landedMeanwhile(git, seed.url, branch, parent, tree);
      if (landed) return alreadyHolds(branch, seed.url, landed);
      if (/non-fast-forward|fetch first|stale info|\[rejected\]/.test(pushed.stderr + pushed.stdout)) {
        return fail(`not pushed: ${branch} moved on ${seed.url} while this was being pushed; publish again or choose another branch`);
      }
      return fail(`not pushed: ${remoteFailure('git push', seed.url, pushed)}`);
    }
    return { ok: true, output: `Pushed ${branch} to ${seed.url} at ${commit} (on ${parent.slice(0, 12)}).\n${stat}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await remote.close();
  }
}
