import type { ToolResult } from '@looplane/engine';
import { RemoteGit } from '../repositories/remote-git';
import type { RepositoryCredential } from '../repositories/remote-git';
import type { ForgeCredential } from '../repositories/repository-secrets';
import { branchNameProblem } from './branch-name';
import { ForgeRequestError, openPullRequest } from './forge-client';
import type { RepositorySeed } from './run-seed';

export interface PullRequestToolRequest {
  seed: RepositorySeed;
  branch: string;
  title: string;
  body: string;
  base: string | null;
  forge: ForgeCredential;
  /** For finding the remote's default branch when the run names no base. */
  credential: RepositoryCredential | null;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Opens a pull request from a published branch into `base` (default: the branch the run started
 * from, else the remote's default branch) on the forge the run's token secret names. One request
 * to the forge; the token goes only there.
 */
export async function pullRequestTool(request: PullRequestToolRequest): Promise<ToolResult> {
  const { seed, forge } = request;
  for (const [what, name] of [
    ['branch', request.branch],
    ['base', request.base],
  ] as const) {
    const problem = name === null ? null : branchNameProblem(name);
    if (problem) return { ok: false, output: `not opened: ${what}: ${problem}` };
  }
  if (request.title.trim() === '') return { ok: false, output: 'not opened: give a title' };
  if (!forge.forge)
    return {
      ok: false,
      output: `not opened: the run's secret ${seed.secretRef} names no forge (set forge: github, gitlab or gitea on it in Settings → Secrets)`,
    };
  const base = request.base ?? seed.branch ?? (await defaultBranchOf(seed.url, request.credential, request.timeoutMs));
  if (!base) return { ok: false, output: `not opened: ${seed.url} has no default branch to merge into; give base` };
  if (base === request.branch) return { ok: false, output: `not opened: the branch and the base are both ${base}` };
  try {
    const opened = await openPullRequest({
      forge: forge.forge,
      apiUrl: forge.apiUrl,
      remoteUrl: seed.url,
      token: forge.token,
      head: request.branch,
      base,
      title: request.title.trim(),
      body: request.body,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return { ok: true, output: `Opened pull request #${opened.number} from ${request.branch} into ${base}: ${opened.url}` };
  } catch (error) {
    if (error instanceof ForgeRequestError) return { ok: false, output: `not opened: ${error.message}` };
    throw error;
  }
}

async function defaultBranchOf(url: string, credential: RepositoryCredential | null, timeoutMs: number): Promise<string | null> {
  const remote = await RemoteGit.open(credential);
  try {
    const refs = await remote.run(['ls-remote', '--symref', url, 'HEAD'], { timeoutMs });
    return /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(refs.stdout)?.[1] ?? null;
  } finally {
    await remote.close();
  }
}
