/** One simple command the line would run, nested ones (inside `sh -c`, `$(...)`, `xargs`, ...) included. */
export interface ShellCommand {
  /** argv[0] after quote removal, without its directory (`/bin/r''m` → `rm`); null when not static. */
  name: string | null;
  /** The words after quote removal; a word that is not static appears as its source text. */
  argv: string[];
  /** The wrappers it runs under, outermost first (`sudo env rm` → `['sudo', 'env']`). */
  via: string[];
  /** 0 at top level; one more inside each `sh -c`, `eval`, substitution or heredoc fed to a shell. */
  depth: number;
}

/** Why a line is destructive, cannot be classified or runs code, tied to the command that made it so. */
export interface ShellFinding {
  command: string;
  reason: string;
}

/** A redirection of the line; `target` is null when it is not static. */
export interface ShellRedirect {
  op: string;
  target: string | null;
}

/** What the parser and the classifier found in one command line (the simulator shows it). */
export interface ShellAnalysis {
  /** The line as given (an argv call is shown shell-quoted). */
  input: string;
  commands: ShellCommand[];
  /** Control operators in order of appearance: `|`, `|&`, `&&`, `||`, `;`, `&`. */
  operators: string[];
  redirects: ShellRedirect[];
  /** Constructs used: pipe, subshell, command-substitution, process-substitution, heredoc, ... */
  features: string[];
  /** Non-empty: the line is destructive. */
  destructive: ShellFinding[];
  /** Non-empty: what runs cannot be known statically (unclassifiable). */
  dynamic: ShellFinding[];
  /**
   * Non-empty: the line runs code the analysis cannot read: a script, a module, a Makefile, a
   * package.json script, or a program named by configuration (git's `.git/config`, a config file
   * an environment variable points to). What that code does is known only once it has run.
   */
  runsCode: ShellFinding[];
  /** The parser's error (`line:col: message`), or null when the line parsed. */
  unparsable: string | null;
}
