import type { TimelineItem } from './timeline';

/**
 * What a run handed back, read from its delivery tools' outputs (the worker's own wording, which
 * its tests pin): `publish_branch` starts with `Pushed <branch> to <url> at <sha>`,
 * `open_pull_request` with `Opened pull request #N from <branch> into <base>: <url>`.
 */

export interface PushedBranch {
  branch: string;
  remote: string;
  commit: string;
}

export interface OpenedPullRequest {
  number: number;
  branch: string;
  base: string;
  url: string;
}

const PUSHED = /^Pushed (\S+) to (\S+) at ([0-9a-f]{7,64})\b/;
const OPENED = /^Opened pull request #(\d+) from (\S+) into (\S+): (\S+)/;

/** The branch a successful `publish_branch` pushed, or null when the output is not a push. */
export function parsePushed(output: string): PushedBranch | null {
  const match = PUSHED.exec(output);
  return match ? { branch: match[1]!, remote: match[2]!, commit: match[3]! } : null;
}

/** The pull request a successful `open_pull_request` opened, or null when the output is not one. */
export function parseOpened(output: string): OpenedPullRequest | null {
  const match = OPENED.exec(output);
  return match ? { number: Number(match[1]), branch: match[2]!, base: match[3]!, url: match[4]! } : null;
}

/**
 * `url` when it is an http(s) address a link may point at, else null: outputs and seeds are
 * data, and a `javascript:` or `file:` address must never become an href.
 */
export function webUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Where hosted forges show a branch; a self-hosted remote's forge is not known from its URL. */
const BRANCH_PATHS: Record<string, (branch: string) => string> = {
  'github.com': (branch) => `/tree/${branch}`,
  'gitlab.com': (branch) => `/-/tree/${branch}`,
  'codeberg.org': (branch) => `/src/branch/${branch}`,
};

/**
 * The web page of `branch` on `remote`: the branch's own page on a known hosted forge, else the
 * repository's page (an http(s) remote without its `.git`), else null (ssh and file remotes).
 */
export function branchWebUrl(remote: string, branch: string): string | null {
  const web = webUrl(remote);
  if (!web) return null;
  const url = new URL(web);
  url.pathname = url.pathname.replace(/\.git\/?$/, '').replace(/\/$/, '');
  const path = BRANCH_PATHS[url.hostname];
  if (path) url.pathname += path(branch.split('/').map(encodeURIComponent).join('/'));
  return url.href;
}

type Delivery = { key: string; pushed: PushedBranch } | { key: string; opened: OpenedPullRequest };

/** The pushes and pull requests of a line's successful delivery calls, in the order they happened. */
export function deliveriesOf(items: readonly TimelineItem[]): Delivery[] {
  const out: Delivery[] = [];
  for (const item of items) {
    if (item.kind !== 'tool' || item.status !== 'ok' || !item.output) continue;
    const pushed = item.name === 'publish_branch' ? parsePushed(item.output) : null;
    if (pushed) out.push({ key: item.key, pushed });
    const opened = item.name === 'open_pull_request' ? parseOpened(item.output) : null;
    if (opened) out.push({ key: item.key, opened });
  }
  return out;
}
