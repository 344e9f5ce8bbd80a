/** Where a {@link Printer} writes; process.stdout / process.stderr in the real CLI. */
export interface OutputStream {
  write(text: string): unknown;
}

/**
 * The CLI's only way to talk to a human: plain lines, no JSON. Nothing else in the CLI writes to
 * the terminal, so tests can capture everything by passing their own streams.
 */
export class Printer {
  constructor(
    private readonly out: OutputStream = process.stdout,
    private readonly err: OutputStream = process.stderr,
  ) {}

  /** A normal progress or result line. */
  info(line: string): void {
    this.out.write(`${line}\n`);
  }

  /** Something the user should notice but that does not stop the command. */
  warn(line: string): void {
    this.err.write(`warning: ${line}\n`);
  }

  /** Why the command failed. One line whenever possible. */
  error(line: string): void {
    this.err.write(`error: ${line}\n`);
  }

  /** A line of a child process's output, prefixed with its name (`web | ...`). */
  child(name: string, line: string, stream: 'stdout' | 'stderr'): void {
    (stream === 'stdout' ? this.out : this.err).write(`${name} | ${line}\n`);
  }

  /** Verbatim text (help, captured output shown after a failure). */
  raw(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    (stream === 'stdout' ? this.out : this.err).write(text.endsWith('\n') ? text : `${text}\n`);
  }
}
