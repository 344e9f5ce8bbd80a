import type { Printer } from './printer';

/** What a command gets when it runs. */
interface CommandContext {
  /** Arguments after the command name. */
  args: string[];
  printer: Printer;
}

/**
 * One `looplane <name>` command. Adding a command = one file in src/commands/ exporting one of
 * these, plus one line in src/commands/index.ts.
 */
export interface Command {
  name: string;
  /** One line, shown by `looplane --help`. */
  summary: string;
  /** Full usage text, shown by `looplane <name> --help`. */
  usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(context: CommandContext): Promise<number>;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A wrong invocation (unknown option, missing argument): printed as-is, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
