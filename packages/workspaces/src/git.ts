import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { AppError } from '@looplane/shared';

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
];
const HARDENING_ARGS = HARDENING.flatMap((setting) => ['-c', setting]);

export interface GitOptions {
  gitDir: string;
  workTree?: string;
  /** Extra settings for this call only (e.g. allowing the local transport for a fork). */
  config?: string[];
  /** Object directories of another repository, to compare commits across workspaces. */
  alternates?: string[];
  /** An index file of the caller's own instead of the repository's (GIT_INDEX_FILE): plumbing that must not touch the work tree's index. */
  indexFile?: string;
  /** Exit codes that are answers, not failures (e.g. 1 from `diff --quiet`). */
  okCodes?: number[];
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: string;
}

/** The clean environment every git call runs with (none of the worker's secrets reach it). */
function gitEnv(options: GitOptions): NodeJS.ProcessEnv {
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
  if (options.indexFile) env.GIT_INDEX_FILE = options.indexFile;
  return env as NodeJS.ProcessEnv;
}

function argvOf(args: string[], options: GitOptions): string[] {
  return [...HARDENING_ARGS, ...(options.config ?? []).flatMap((setting) => ['-c', setting]), ...args];
}

/** Runs git for a workspace with a clean environment; stdout as text. */
export function git(args: string[], options: GitOptions, gitPath = 'git'): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // The git binary is not a project file: nothing for the web bundler to trace.
    execFile(
      /*turbopackIgnore: true*/ gitPath,
      argvOf(args, options),
      { env: gitEnv(options), cwd: '/', timeout: options.timeoutMs ?? 120_000, maxBuffer: 256 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (code === 0 || options.okCodes?.includes(code)) return resolve({ code, stdout });
        reject(new AppError('INTERNAL', `git ${args[0]} failed: ${(stderr || error?.message || '').trim().slice(0, 500)}`, { cause: error }));
      },
    );
  });
}

export interface GitBytesOptions extends GitOptions {
  /** Written to git's stdin, which is then closed. */
  input?: Buffer | string;
  /** Stop reading (and kill git) after this many bytes of stdout; `truncated` says so. */
  maxBytes?: number;
}

/** Runs git with binary stdin/stdout (packs, blobs, archives). */
export function gitBytes(args: string[], options: GitBytesOptions, gitPath = 'git'): Promise<{ code: number; stdout: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(/*turbopackIgnore: true*/ gitPath, argvOf(args, options), { env: gitEnv(options), cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (options.maxBytes !== undefined && size + chunk.length > options.maxBytes) {
        chunks.push(chunk.subarray(0, options.maxBytes - size));
        size = options.maxBytes;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 16) errors.push(chunk);
    });
    child.stdin.on('error', () => undefined); // git may exit before reading everything (an error it reports on stderr)
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new AppError('INTERNAL', `git ${args[0]} could not start: ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(chunks);
      if (truncated) return resolve({ code: code ?? -1, stdout, truncated });
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) return resolve({ code, stdout, truncated });
      reject(new AppError('INTERNAL', `git ${args[0]} failed: ${Buffer.concat(errors).toString('utf8').trim().slice(0, 500) || `exit ${code}`}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs a short /bin/sh script of git commands in one process start (starting a process from a
 * large worker costs milliseconds; from the shell, little). Every git in it gets the same clean
 * environment and hardening as {@link git}, the settings through GIT_CONFIG_* variables. Values
 * go in `vars` (as environment variables), never into the script text.
 */
export function gitScript(script: string, options: GitOptions, vars: Record<string, string> = {}): Promise<GitResult> {
  const settings = [...HARDENING, ...(options.config ?? [])];
  const env: Record<string, string> = { ...(gitEnv(options) as Record<string, string>), ...vars, GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach((setting, i) => {
    const at = setting.indexOf('=');
    env[`GIT_CONFIG_KEY_${i}`] = setting.slice(0, at);
    env[`GIT_CONFIG_VALUE_${i}`] = setting.slice(at + 1);
  });
  return new Promise((resolve, reject) => {
    execFile(
      /*turbopackIgnore: true*/ '/bin/sh',
      ['-c', `set -e\n${script}`],
      { env: env as NodeJS.ProcessEnv, cwd: '/', timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (code === 0 || options.okCodes?.includes(code)) return resolve({ code, stdout });
        reject(new AppError('INTERNAL', `git script failed: ${(stderr || error?.message || '').trim().slice(0, 500)}`, { cause: error }));
      },
    );
  });
}

/** Runs git with its stdout as a stream (an archive sent as it is made); the caller consumes it. */
export function gitStream(args: string[], options: GitOptions, gitPath = 'git'): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(/*turbopackIgnore: true*/ gitPath, argvOf(args, options), { env: gitEnv(options), cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
}

const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A full commit id (SHA-1 or SHA-256); abbreviations and ref names are refused. */
export function checkCommitId(commit: string): string {
  if (!COMMIT_ID.test(commit)) throw new AppError('BAD_REQUEST', `not a full commit id: ${JSON.stringify(commit.slice(0, 80))}`);
  return commit;
}
