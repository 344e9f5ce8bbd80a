import { DEFAULT_WORKSPACE_ROOT, normalizeAbsolute } from '../workspace-paths';
import type { ShellAnalysis } from './analysis-types';
import { classifyCommand } from './classify-command';
import { type Frame, type ScanState, dynamic } from './scan-state';
import { parseScript } from './syntax-tree';
import { checkAssignment } from './variables';
import { walkStatements } from './walk-script';
import { literalWord } from './words';

/** Where the line runs: the workspace root, the working directory, and scratch directories writes may go to. */
export interface ShellContext {
  /** Absolute path of the workspace inside the sandbox (default `/workspace`). */
  workspaceRoot?: string;
  /** Working directory of the command (default: the workspace root). */
  cwd?: string;
  /** Directories outside the workspace that writes may go to (default: `/tmp`, private to each sandbox). */
  scratchDirs?: string[];
  /** Variables the call sets for the line (the shell tool's `env`): judged like `NAME=value` before it. */
  env?: Record<string, string>;
  /** Text the call feeds to the line's standard input (the shell tool's `stdin`); without it stdin is empty. */
  stdin?: string;
}

/** Longer lines are refused rather than parsed: nobody reviews a 100 kB command line anyway. */
const MAX_LENGTH = 100_000;

function newState(context: ShellContext): ScanState {
  const root = normalizeAbsolute(context.workspaceRoot ?? DEFAULT_WORKSPACE_ROOT);
  const state: ScanState = {
    root,
    cwd: context.cwd ? normalizeAbsolute(context.cwd.startsWith('/') ? context.cwd : `${root}/${context.cwd}`) : root,
    scratch: (context.scratchDirs ?? ['/tmp']).map(normalizeAbsolute),
    commands: [],
    operators: [],
    redirects: [],
    features: new Set(),
    destructive: [],
    dynamic: [],
    runsCode: [],
    classify: (words, frame, via) => classifyCommand(words, frame, state, via),
    nested: (source, frame, origin) => {
      const parsed = parseScript(source);
      if (!parsed.ok) return dynamic(state, origin, `the code it runs does not parse (${parsed.error})`);
      walkStatements((parsed.file.Stmts as never[]) ?? [], { ...frame, bytes: parsed.bytes, depth: frame.depth + 1 }, state);
    },
  };
  return state;
}

/** The frame a line starts in: depth 0, stdin as the call gives it, and the call's variables judged. */
function topFrame(bytes: Uint8Array, context: ShellContext, state: ScanState): Frame {
  for (const name of Object.keys(context.env ?? {})) checkAssignment(state, name, `${name}=… (the call's env)`, 'the command');
  const stdin = context.stdin;
  if (stdin === undefined) return { bytes, depth: 0, stdin: { kind: 'none' } };
  return { bytes, depth: 0, stdin: { kind: 'text', text: stdin.length > MAX_LENGTH ? null : stdin } };
}

function finish(input: string, state: ScanState, unparsable: string | null): ShellAnalysis {
  return deepFreeze({
    input,
    commands: state.commands,
    operators: state.operators,
    redirects: state.redirects,
    features: [...state.features].sort(),
    destructive: state.destructive,
    dynamic: state.dynamic,
    runsCode: state.runsCode,
    unparsable,
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

// Analyses are pure functions of (line, context) and cost a few milliseconds each; re-deciding a
// batch of recent calls under two policy versions asks for the same lines again.
const cache = new Map<string, ShellAnalysis>();
const CACHE_SIZE = 500;

function cached(key: string, compute: () => ShellAnalysis): ShellAnalysis {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const value = compute();
  cache.set(key, value);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return value;
}

/**
 * Parses a command line as `/bin/sh -c` would run it and classifies every command in it. Never
 * throws: a line that does not parse comes back with `unparsable` set. The result is frozen.
 */
export function analyzeShell(command: string, context: ShellContext = {}): ShellAnalysis {
  return cached(JSON.stringify(['sh', command, context]), () => {
    const state = newState(context);
    if (command.length > MAX_LENGTH) return finish(command, state, `the command is longer than ${MAX_LENGTH} characters`);
    const parsed = parseScript(command);
    if (!parsed.ok) return finish(command, state, parsed.error);
    const frame = topFrame(parsed.bytes, context, state);
    walkStatements((parsed.file.Stmts as never[]) ?? [], frame, state);
    return finish(command, state, null);
  });
}

/** Shell-quotes argv for display. */
function quote(argv: string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * Classifies a command given as argv (executed without a shell): nothing expands, but wrappers,
 * `sh -c` strings and the destructive rules apply as for a line.
 */
export function analyzeArgv(argv: string[], context: ShellContext = {}): ShellAnalysis {
  return cached(JSON.stringify(['argv', argv, context]), () => {
    const state = newState(context);
    const frame = topFrame(new Uint8Array(), context, state);
    if (argv.length > 0) state.classify(argv.map(literalWord), frame, []);
    return finish(quote(argv), state, null);
  });
}
