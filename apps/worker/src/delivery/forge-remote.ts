import type { Forge } from '@looplane/db';
import { parseRepositoryUrl } from '@looplane/engine';

/** A repository on a forge, as a remote URL names it. */
export interface ForgeRepository {
  /** The forge's web host: `host[:port]` of an http(s) remote, the host alone of an ssh one (its port is ssh's). */
  host: string;
  /** `http` only for an http remote on this machine; otherwise `https`, so a token never crosses a network in the clear. */
  scheme: 'https' | 'http';
  /** The project path without `.git`: `owner/repo`, or on GitLab `group/subgroup/project`. */
  path: string;
  /** The first segment of `path`, and the last. */
  owner: string;
  repo: string;
}

const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/**
 * Where a remote lives on its forge: `https://host/owner/repo(.git)`, `ssh://git@host/owner/repo.git`
 * or `git@host:owner/repo.git`. GitHub and Gitea name a repository by exactly owner and name;
 * GitLab by a project path of two or more segments. Throws with the reason otherwise.
 */
export function forgeRepositoryOf(forge: Forge, remoteUrl: string): ForgeRepository {
  const parsed = parseRepositoryUrl(remoteUrl);
  if (!parsed.ok) throw new Error(`The remote URL ${parsed.reason}`);
  if (parsed.scheme === 'file') throw new Error('A file:// remote is on no forge, so no pull request can be opened for it');
  const url = new URL(parsed.normalized);
  const segments = url.pathname
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (segments.length < 2 || (forge !== 'gitlab' && segments.length !== 2))
    throw new Error(`The remote URL's path must be ${forge === 'gitlab' ? 'group/project (or group/subgroup/project)' : 'owner/repository'}`);
  if (!segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..'))
    throw new Error('The remote URL\'s path may use only letters, digits and "_", "-" and "." in each segment');
  const ssh = parsed.scheme === 'ssh';
  return {
    host: ssh ? url.hostname : url.host,
    scheme: parsed.scheme === 'http' && LOOPBACK.has(url.hostname) ? 'http' : 'https',
    path: segments.join('/'),
    owner: segments[0]!,
    repo: segments.at(-1)!,
  };
}

/**
 * The API base URL a forge serves for a repository's host: GitHub's own API for github.com,
 * GitHub Enterprise's `/api/v3`, GitLab's `/api/v4`, Gitea's `/api/v1`.
 */
export function defaultForgeApiUrl(forge: Forge, repository: ForgeRepository): string {
  const base = `${repository.scheme}://${repository.host}`;
  switch (forge) {
    case 'github':
      return repository.host === 'github.com' || repository.host === 'www.github.com' ? 'https://api.github.com' : `${base}/api/v3`;
    case 'gitlab':
      return `${base}/api/v4`;
    case 'gitea':
      return `${base}/api/v1`;
  }
}
