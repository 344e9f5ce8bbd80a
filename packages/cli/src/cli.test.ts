import { describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { Printer } from './printer';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (err += t) });
  const code = await runCli(argv, printer);
  return { code, out, err };
}

describe('runCli', () => {
  it('lists the commands for --help and exits 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const { code, out } = await run(flag);
      expect(code).toBe(0);
      expect(out).toContain('Usage: looplane <command>');
      expect(out).toMatch(/^ {2}start +Run Looplane locally/m);
      expect(out).toMatch(/^ {2}version +Print the Looplane version/m);
    }
  });

  it('prints the usage and exits 2 without a command', async () => {
    const { code, out } = await run();
    expect(code).toBe(2);
    expect(out).toContain('Usage: looplane <command>');
  });

  it('rejects an unknown command with one clear line and exit code 2', async () => {
    const { code, out, err } = await run('strat');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe('error: unknown command "strat". Run `looplane --help` to list the commands.\n');
  });

  it('prints the usage of one command for <command> --help', async () => {
    const { code, out } = await run('start', '--help');
    expect(code).toBe(0);
    expect(out).toContain('Usage: looplane start');
    expect(out).toContain('LOOPLANE_HOME');
  });

  it('rejects an unknown option with exit code 2', async () => {
    const { code, err } = await run('version', '--verbose');
    expect(code).toBe(2);
    expect(err).toMatch(/^error: Unknown option '--verbose'\. Run `looplane version --help` for usage\.\n$/);
  });

  it('says how to pass an option value that starts with a dash', async () => {
    const { code, err } = await run('mcp', 'add', 'echo', '--command', 'node', '--arg', '-e');
    expect(code).toBe(2);
    expect(err).toContain("Option '--arg' argument is ambiguous. ");
    expect(err).toContain("use '--arg=-XYZ'. Run `looplane mcp --help` for usage.\n");
    expect(err.split('\n')).toHaveLength(2);
  });

  it('prints the version', async () => {
    const { code, out } = await run('version');
    expect(code).toBe(0);
    expect(out).toMatch(/^looplane \d+\.\d+\.\d+ \(node \d+\.\d+\.\d+\)\n$/);
  });
});
