import { EXIT, UsageError, type Command } from './command';
import { commands } from './commands';
import { Printer } from './printer';

function globalUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: looplane <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `looplane <command> --help` for the options of one command.',
    '',
    'Output: human-readable lines; remote commands take --json for machine-readable output on stdout.',
    'Errors go to stderr as one line starting with "error:".',
    '',
    'Exit codes (every command):',
    '  0  success',
    '  1  failure: the server refused or failed, a run failed (run --follow, tail), a check failed',
    '  2  wrong usage: unknown command or option, missing argument, LOOPLANE_TOKEN not set',
  ].join('\n');
}

const isHelpFlag = (arg: string | undefined): boolean => arg === '--help' || arg === '-h';

/**
 * Dispatches `looplane <command> ...args` and resolves to the exit code: 0 success, 1 failure,
 * 2 wrong usage (unknown command or option).
 */
export async function runCli(argv: string[], printer = new Printer()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || isHelpFlag(name) || name === 'help') {
    printer.raw(globalUsage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) {
    printer.error(`unknown command "${name}". Run \`looplane --help\` to list the commands.`);
    return EXIT.usage;
  }
  if (args.some(isHelpFlag)) {
    printer.raw(command.usage);
    return EXIT.ok;
  }
  try {
    return await command.run({ args, printer });
  } catch (error) {
    if (error instanceof UsageError) {
      printer.error(`${error.message}. Run \`looplane ${command.name} --help\` for usage.`);
      return EXIT.usage;
    }
    printer.error(error instanceof Error ? error.message : String(error));
    return EXIT.failure;
  }
}
