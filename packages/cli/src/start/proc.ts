import { readdirSync, readFileSync } from 'node:fs';

/**
 * The kernel's start time of `pid` (clock ticks since boot, /proc/<pid>/stat field 22), or null
 * when no such process exists or it is a zombie. A pid plus its start time names a process
 * unambiguously, even after the pid was reused.
 */
export function processStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return Number(fields[19]);
  } catch {
    return null;
  }
}

/** Whether any live (non-zombie) process is in process group `pgid`. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  // kill(0) also succeeds for zombies; only count members that still run.
  return groupMembers(pgid).length > 0;
}

/** Pids of the live processes in process group `pgid` (from /proc). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return members;
}

/** Sends `signal` to every process of group `pgid`; a group that is already gone is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Stops process group `pgid`: `signal` first, SIGKILL to whatever is left after `graceMs`, and
 * resolves once no live process remains in the group (or 5 s after the SIGKILL at the latest).
 */
export async function stopGroup(pgid: number, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  signalGroup(pgid, signal);
  if (await waitUntil(() => !groupAlive(pgid), graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitUntil(() => !groupAlive(pgid), 5000);
}

/** Polls `condition` every 50 ms; resolves true as soon as it holds, false after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
