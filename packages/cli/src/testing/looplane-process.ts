import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Helpers for tests that run the real `looplane` binary as a process and look at /proc. */

const bin = fileURLToPath(new URL('../../bin/looplane.mjs', import.meta.url));

/** A `looplane` process a test started. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far (stdout and stderr interleaved). */
  output: () => string;
  /** Resolves with its exit code once its pipes are closed. */
  exited: Promise<number | null>;
}

/** Runs `looplane ...args` with exactly `env` (plus PATH and HOME of the test). */
export function spawnCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects if the process exits first or on timeout. */
export async function waitForOutput(running: RunningCli, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | null | undefined;
  void running.exited.then((code) => (exitedWith = code));
  for (;;) {
    const match = running.output().match(pattern);
    if (match) return match;
    if (exitedWith !== undefined) throw new Error(`looplane exited (${exitedWith}) before ${pattern}:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A live process, from /proc. */
export interface Proc {
  pid: number;
  ppid: number;
  startTime: number;
  cmdline: string;
}

/** Every live (non-zombie) process. */
function processes(): Proc[] {
  const result: Proc[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      result.push({ pid: Number(entry), ppid: Number(fields[1]), startTime: Number(fields[19]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return result;
}

/** Every live descendant of `root`. */
export function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const pid = frontier.pop()!;
    for (const proc of all.filter((p) => p.ppid === pid)) {
      found.push(proc);
      frontier.push(proc.pid);
    }
  }
  return found;
}

/** Live processes (other than the test's) whose command line mentions `home` or `port`. */
export function mentioning(home: string, port: number): Proc[] {
  const portPattern = new RegExp(`(^|[^0-9])${port}([^0-9]|$)`);
  return processes().filter((p) => p.pid !== process.pid && (p.cmdline.includes(home) || portPattern.test(p.cmdline)));
}
