import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Printer } from '../printer';
import { forEachLine, LineTail } from './line-tail';
import { groupAlive, stopGroup } from './proc';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process the CLI started and must stop. */
export interface ManagedChild {
  readonly name: string;
  /** Pid of the child, which is also the id of its process group. */
  readonly pid: number;
  /** Resolves when the child itself exits. */
  readonly exited: Promise<ChildExit>;
  /** The last lines it printed (stdout and stderr interleaved). */
  readonly tail: LineTail;
  /** Whether {@link stop} was called (an exit after that is expected). */
  readonly stopping: boolean;
  /**
   * Stops the child's whole process group: `signal`, then SIGKILL after `graceMs`. Resolves when
   * no process of the group is left.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface SpawnChildOptions {
  /** Short name used as the output prefix (`web | ...`) and in messages. */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** The child's complete environment (nothing is inherited implicitly). */
  env: Record<string, string>;
  /** Forward each output line to the terminal as `name | line`. */
  printer?: Printer;
  /** Forward the lines as they are, without the `name | ` prefix (a foreground process's own logs). */
  unprefixed?: boolean;
  /** Also append the output to this file. */
  logFile?: string;
  /** Run as this user and group (the CLI may be root; Postgres refuses to run as root). */
  uid?: number;
  gid?: number;
}

/**
 * Starts a child in its own process group (so a terminal's Ctrl-C reaches only the CLI, which then
 * stops children in order) and resolves once it is running; rejects with a clear message when the
 * executable cannot be started.
 */
export async function spawnChild(options: SpawnChildOptions): Promise<ManagedChild> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`could not start ${options.name} (${options.command}): ${error.message}`)));
  });
  const pid = child.pid!;
  const tail = new LineTail();
  const log: WriteStream | undefined = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const onLine = (stream: 'stdout' | 'stderr') => (line: string) => {
    tail.push(line);
    log?.write(`${line}\n`);
    if (options.unprefixed) options.printer?.raw(line, stream);
    else options.printer?.child(options.name, line, stream);
  };
  forEachLine(child.stdout, onLine('stdout'));
  forEachLine(child.stderr, onLine('stderr'));

  // 'close' comes once nothing holds the pipes any more; only then is the log complete.
  const closed = new Promise<void>((resolve) =>
    child.once('close', () => {
      log?.end();
      resolve();
    }),
  );
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('exit', (code, signal) => {
      // Give the pipes a moment to drain so the tail holds the last words; a grandchild that
      // still holds them open must not delay noticing the exit.
      void Promise.race([closed, delay(1000)]).then(() => resolve({ code, signal }));
    });
  });

  let stopping = false;
  return {
    name: options.name,
    pid,
    exited,
    tail,
    get stopping() {
      return stopping;
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
      stopping = true;
      if (groupAlive(pid)) await stopGroup(pid, signal, graceMs);
      await Promise.race([exited, delay(5000)]);
    },
  };
}

/** "exited with code 1" / "was killed by SIGKILL", for messages. */
export function describeExit(exit: ChildExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
