import type { ShellCommand, ShellFinding, ShellRedirect } from './analysis-types';
import type { ResolvedWord } from './words';

/** What a command reads on standard input; `text` is null when the text is not static. */
export type Stdin = { kind: 'none' } | { kind: 'pipe' } | { kind: 'text'; text: string | null } | { kind: 'file'; path: string | null };

/** Where in the line a command sits: its nesting depth and what its standard input is. */
export interface Frame {
  bytes: Uint8Array;
  depth: number;
  stdin: Stdin;
}

/**
 * Everything one analysis accumulates. The line runs top to bottom, so the working directory is
 * tracked as one value (null: unknown); a `cd` inside a subshell is over-approximated as global,
 * which can only make a later relative write look more suspicious, never less.
 */
export interface ScanState {
  root: string;
  cwd: string | null;
  scratch: string[];
  commands: ShellCommand[];
  operators: string[];
  redirects: ShellRedirect[];
  features: Set<string>;
  destructive: ShellFinding[];
  dynamic: ShellFinding[];
  runsCode: ShellFinding[];
  /** Classifies one simple command (argv after quote removal). */
  classify(words: ResolvedWord[], frame: Frame, via: string[]): void;
  /** Parses and classifies code that a command would run (`sh -c`, `eval`, a heredoc fed to a shell). */
  nested(source: string, frame: Frame, origin: string): void;
}

/** Records that the line is destructive. */
export function destructive(state: ScanState, command: string, reason: string): void {
  state.destructive.push({ command, reason });
}

/** Records that what runs cannot be known statically. */
export function dynamic(state: ScanState, command: string, reason: string): void {
  state.dynamic.push({ command, reason });
}

/** Records that the line runs code the analysis cannot read (a script, a Makefile, configuration). */
export function runsCode(state: ScanState, command: string, reason: string): void {
  state.runsCode.push({ command, reason });
}

/** Deepest nesting of `sh -c`/`eval`/substitutions analysed; deeper is unclassifiable. */
export const MAX_DEPTH = 8;
