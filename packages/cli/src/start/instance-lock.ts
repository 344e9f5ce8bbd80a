import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Printer } from '../printer';
import { processStartTime, stopGroup } from './proc';

const processSchema = z.object({ name: z.string(), pid: z.number(), startTime: z.number() });
const stateSchema = z.object({ pid: z.number(), startTime: z.number(), children: z.array(processSchema) });
type State = z.infer<typeof stateSchema>;

/** Held by the one `looplane start` that owns a LOOPLANE_HOME. */
export interface InstanceLock {
  /**
   * Remembers a started process group, so a later start can stop it if this one is killed. A name
   * recorded again (a restarted web or worker) replaces its earlier entry, keeping its place.
   */
  record(name: string, pid: number): Promise<void>;
  /** Releases the lock (after everything recorded was stopped). */
  release(): Promise<void>;
}

/**
 * Claims `home` for this process through `home/run.json`. A second start on the same home fails
 * with a clear message. When the previous owner died without cleaning up (SIGKILL, power loss),
 * the process groups it recorded that are still running are stopped first, newest first, so a
 * crashed start never leaves a Postgres holding the data directory.
 */
export async function acquireInstanceLock(home: string, printer: Printer): Promise<InstanceLock> {
  const file = join(home, 'run.json');
  const previous = await readState(file);
  if (previous && processStartTime(previous.pid) === previous.startTime && previous.pid !== process.pid) {
    throw new Error(`Looplane is already running from ${home} (pid ${previous.pid}). Stop it first, or set LOOPLANE_HOME to another directory.`);
  }
  for (const leftover of [...(previous?.children ?? [])].reverse()) {
    if (processStartTime(leftover.pid) !== leftover.startTime) continue;
    printer.warn(`stopping ${leftover.name} (pid ${leftover.pid}), left running by an earlier start that did not shut down`);
    await stopGroup(leftover.pid, 'SIGTERM', 10_000);
  }

  const state: State = { pid: process.pid, startTime: processStartTime(process.pid) ?? 0, children: [] };
  const save = async () => {
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
    await rename(temporary, file);
  };
  await save();
  return {
    async record(name, pid) {
      const entry = { name, pid, startTime: processStartTime(pid) ?? 0 };
      const index = state.children.findIndex((child) => child.name === name);
      if (index === -1) state.children.push(entry);
      else state.children[index] = entry;
      await save();
    },
    async release() {
      await rm(file, { force: true });
    },
  };
}

async function readState(file: string): Promise<State | null> {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
