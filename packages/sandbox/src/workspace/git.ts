import { execFile } from 'node:child_process';
import { AppError } from '@looplane/shared';
import { childEnv } from '../process/child-env';

/**
 * Settings that keep the worker's git from running anything a workspace could plant: no hooks, no
 * fsmonitor command, no transports, no system or global config (the git dir is never inside the
 * work tree, and GIT_DIR is always explicit, so a `.git` the agent creates is never discovered).
 */
const HARDENING = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.autocrlf=false',
  'core.symlinks=true',
  'core.quotePath=false',
  'commit.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'protocol.allow=never',
  'safe.directory=*',
  'advice.addEmbeddedRepo=false',
].flatMap((setting) => ['-c', setting]);

export interface GitOptions {
  gitDir: string;
  workTree?: string;
  /** Extra settings for this call only (e.g. allowing the local transport for a fork). */
  config?: string[];
  /** Object directories of another repository, to compare commits across workspaces. */
  alternates?: string[];
  /** Exit codes that are answers, not failures (e.g. 1 from `diff --quiet`). */
  okCodes?: number[];
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: string;
}

/** Runs git for a workspace with a clean environment (none of the worker's secrets reach it). */
export function git(args: string[], options: GitOptions, gitPath = 'git'): Promise<GitResult> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: options.gitDir,
    LC_ALL: 'C',
    GIT_DIR: options.gitDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Looplane',
    GIT_AUTHOR_EMAIL: 'workspace@looplane.invalid',
    GIT_COMMITTER_NAME: 'Looplane',
    GIT_COMMITTER_EMAIL: 'workspace@looplane.invalid',
  };
  if (options.workTree) env.GIT_WORK_TREE = options.workTree;
  if (options.alternates?.length) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = options.alternates.join(':');
  const config = (options.config ?? []).flatMap((setting) => ['-c', setting]);
  return new Promise((resolve, reject) => {
    execFile(
      gitPath,
      [...HARDENING, ...config, ...args],
      { env: childEnv(env), cwd: '/', timeout: options.timeoutMs ?? 120_000, maxBuffer: 256 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (code === 0 || options.okCodes?.includes(code)) return resolve({ code, stdout });
        reject(new AppError('INTERNAL', `git ${args[0]} failed: ${(stderr || error?.message || '').trim().slice(0, 500)}`, { cause: error }));
      },
    );
  });
}

const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A full commit id (SHA-1 or SHA-256); abbreviations and ref names are refused. */
export function checkCommitId(commit: string): string {
  if (!COMMIT_ID.test(commit)) throw new AppError('BAD_REQUEST', `not a full commit id: ${JSON.stringify(commit.slice(0, 80))}`);
  return commit;
}
