import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { AppError } from '@looplane/shared';
import type { WorkspaceMount } from '../types';

/**
 * The uid/gid to launch with. As root the sandbox must run as the workspace's own unprivileged
 * uid: bwrap launched by root maps the sandbox onto host root. Without root there is nothing to
 * switch to, so the workspace must belong to the worker's own uid.
 */
export function launchIdentity(workspace: WorkspaceMount): { spawn: { uid?: number; gid?: number }; dedicatedUid: boolean } {
  const self = process.getuid?.() ?? -1;
  if (self === 0) {
    if (workspace.uid === 0 || workspace.gid === 0)
      throw new AppError('PRECONDITION_FAILED', 'refusing to run a sandbox as root: the workspace must belong to an unprivileged uid');
    return { spawn: { uid: workspace.uid, gid: workspace.gid }, dedicatedUid: true };
  }
  if (workspace.uid !== self)
    throw new AppError(
      'PRECONDITION_FAILED',
      `the workspace belongs to uid ${workspace.uid}, but a non-root worker can only run sandboxes as itself (${self})`,
    );
  return { spawn: {}, dedicatedUid: false };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Validates extra environment variables (names a shell accepts, no NUL, bounded size). */
export function checkEnv(env: Record<string, string> | undefined): Record<string, string> {
  if (!env) return {};
  const entries = Object.entries(env);
  if (entries.length > 100) throw new AppError('BAD_REQUEST', 'at most 100 environment variables');
  for (const [name, value] of entries) {
    if (!ENV_NAME.test(name)) throw new AppError('BAD_REQUEST', `invalid environment variable name: ${JSON.stringify(name)}`);
    if (typeof value !== 'string' || value.includes('\0') || value.length > 32_768)
      throw new AppError('BAD_REQUEST', `invalid value for environment variable ${name}`);
  }
  return Object.fromEntries(entries);
}

/** The working directory inside the sandbox for a workspace-relative path; it cannot leave /workspace. */
export function innerCwd(relative: string | undefined): string {
  const path = posix.normalize(posix.join('/workspace', relative ?? '.'));
  if (path !== '/workspace' && !path.startsWith('/workspace/')) throw new AppError('BAD_REQUEST', `cwd must stay inside the workspace: ${relative}`);
  return path;
}

/**
 * Reads bwrap's --json-status-fd documents. "child-pid" (the host pid of the sandbox's PID 1)
 * comes right after clone and says which process to kill to end the PID namespace. "exit-code"
 * is written only when the sandbox was fully set up and the command started, which is how a
 * setup failure (an infrastructure error) is told from a command failing.
 */
export class StatusChannel {
  childPid: number | null = null;
  setupFinished = false;
  private buffer = '';
  private waiters: (() => void)[] = [];

  /** Resolves once the child pid is known, or after `ms` (bwrap reports it right after clone). */
  waitForChildPid(ms: number): Promise<void> {
    if (this.childPid !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  attach(child: ChildProcess): void {
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      const pid = /"child-pid":\s*(\d+)/.exec(this.buffer)?.[1];
      if (pid && this.childPid === null) {
        this.childPid = Number(pid);
        for (const wake of this.waiters.splice(0)) wake();
      }
      if (this.buffer.includes('"exit-code"')) this.setupFinished = true;
      if (this.buffer.length > 65_536) this.buffer = this.buffer.slice(-1024);
    });
    child.stdio[3]?.on('error', () => undefined);
    child.once('exit', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
}

/** The parent pid of a process (null if it is gone): guards a kill against a recycled pid. */
export async function parentOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
  const ppid = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  return ppid ? Number(ppid) : null;
}

/** Resolves true once the process has exited, false after `ms`. */
export function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
