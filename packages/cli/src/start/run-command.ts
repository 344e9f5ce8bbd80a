import type { Printer } from '../printer';
import { describeExit, spawnChild } from './children';

export interface RunCommandOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Aborting stops the command's process group. */
  signal: AbortSignal;
  /** Forward output lines as `name | line` while it runs (otherwise output is shown only on failure). */
  printer?: Printer;
  logFile?: string;
}

/** A one-shot command failed; the message carries the end of its output. */
class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
}

/**
 * Runs a command to completion in its own process group. Resolves on exit code 0; rejects with a
 * {@link CommandFailedError} that ends with the command's last output lines otherwise, or with the
 * signal's reason when aborted.
 */
export async function runCommand(options: RunCommandOptions): Promise<void> {
  options.signal.throwIfAborted();
  const child = await spawnChild(options);
  const onAbort = () => void child.stop('SIGTERM', 5000);
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await child.exited;
    options.signal.throwIfAborted();
    if (exit.code !== 0) {
      const output = options.printer ? '' : `; its last output:\n${child.tail.text()}`;
      const log = options.logFile ? `\n(full output in ${options.logFile})` : '';
      throw new CommandFailedError(`${options.name} ${describeExit(exit)}${output}${log}`);
    }
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}
