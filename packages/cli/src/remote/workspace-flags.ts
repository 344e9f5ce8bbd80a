import type { Schema } from '@looplane/client';
import { UsageError } from '../command';

/** The `looplane run` options that say where a run's files come from. */
export interface WorkspaceFlags {
  repo?: string | undefined;
  ref?: string | undefined;
  secret?: string | undefined;
  depth?: string | undefined;
  archive?: string | undefined;
  'from-session'?: string | undefined;
}

/** What the flags ask for: nothing (the agent's default), a source to send as it is, or a file to upload first. */
export type WorkspaceChoice = { kind: 'default' } | { kind: 'source'; source: Schema<'WorkspaceSource'> } | { kind: 'archive'; path: string };

const SOURCES = ['repo', 'archive', 'from-session'] as const;
const REPO_ONLY = ['ref', 'secret', 'depth'] as const;
const SESSION_REF = /^([A-Za-z0-9_-]{1,64})(?:@([0-9]+))?$/;

/**
 * Reads the workspace options of `looplane run`: at most one of --repo, --archive and
 * --from-session; --ref, --secret and --depth only with --repo. What the server checks (the
 * URL, the policy, the secret) is left to it, so its messages are the ones the user sees.
 */
export function workspaceChoice(flags: WorkspaceFlags): WorkspaceChoice {
  const given = SOURCES.filter((name) => flags[name] !== undefined);
  if (given.length > 1) throw new UsageError(`give one of --repo, --archive or --from-session, not ${given.map((name) => `--${name}`).join(' and ')}`);
  if (flags.repo === undefined) {
    const stray = REPO_ONLY.find((name) => flags[name] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --repo URL`);
  }
  if (flags.repo !== undefined) {
    let depth: number | undefined;
    if (flags.depth !== undefined) {
      depth = Number(flags.depth);
      if (!Number.isInteger(depth) || depth < 1) throw new UsageError('--depth must be a whole number of 1 or more');
    }
    const git = { url: flags.repo, ...(flags.ref !== undefined ? { ref: flags.ref } : {}), ...(flags.secret !== undefined ? { secretRef: flags.secret } : {}) };
    return { kind: 'source', source: { git: { ...git, ...(depth !== undefined ? { depth } : {}) } } };
  }
  if (flags.archive !== undefined) {
    if (flags.archive === '') throw new UsageError('--archive needs the path of a .tar, .tar.gz or .zip file');
    return { kind: 'archive', path: flags.archive };
  }
  const from = flags['from-session'];
  if (from === undefined) return { kind: 'default' };
  const match = SESSION_REF.exec(from);
  if (!match) throw new UsageError('--from-session takes SESSION_ID or SESSION_ID@EVENT (e.g. cm1abc@12)');
  const atEvent = match[2] === undefined ? undefined : Number(match[2]);
  if (atEvent !== undefined && (atEvent < 1 || atEvent > 2_147_483_647)) throw new UsageError('--from-session: the event must be 1 or more');
  return { kind: 'source', source: { session: { sessionId: match[1]!, ...(atEvent !== undefined ? { atEvent } : {}) } } };
}
