import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Strict `node:util` parseArgs for one command; an unknown option or a stray positional becomes
 * a {@link UsageError} (exit code 2) instead of a stack trace.
 */
export function parseCommandArgs<T extends Options>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    // parseArgs explains some errors over several lines (an option value that starts with a
    // dash says to write --opt=-value); keep all of it, on one line, without the final period
    // the "Run … --help" suffix would double.
    throw new UsageError(error instanceof Error ? error.message.split('\n').join(' ').replace(/\.$/, '') : String(error));
  }
}
