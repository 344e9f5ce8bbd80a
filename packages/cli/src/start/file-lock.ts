import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { processStartTime } from './proc';

/**
 * An exclusive lock between processes on one machine: a file created with O_EXCL holding the
 * owner's pid and start time. A lock whose owner is gone (crashed, killed) is taken over.
 * Resolves with a release function once held; calls `onWait` once if it has to wait.
 */
export async function acquireFileLock(file: string, options: { onWait: () => void; signal: AbortSignal }): Promise<() => Promise<void>> {
  await mkdir(dirname(file), { recursive: true });
  const me = JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid) });
  let waited = false;
  for (;;) {
    options.signal.throwIfAborted();
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(me);
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await ownerIsGone(file)) {
      await rm(file, { force: true });
      continue;
    }
    if (!waited) options.onWait();
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function ownerIsGone(file: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false; // Released meanwhile: just retry.
  }
  if (text === '') return false; // Being written by its owner right now.
  try {
    const owner = JSON.parse(text) as { pid: number; startTime: number | null };
    const now = processStartTime(owner.pid);
    return now === null || now !== owner.startTime;
  } catch {
    return true;
  }
}
