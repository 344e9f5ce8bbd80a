import { type ParsedTarget, parseTarget } from '../hosts';
import type { ShellAnalysis } from '../shell/analysis-types';
import { type ShellContext, analyzeArgv, analyzeShell } from '../shell/analyze-shell';
import { HTTP_TOOL, SHELL_TOOL, isFileTool } from '../tool-names';
import { DEFAULT_WORKSPACE_ROOT, normalizeAbsolute, resolvePath } from '../workspace-paths';
import type { PolicyCall, PolicyContext } from './decision';

/** A file tool's `path`, relative to the workspace (null: outside it), or why it could not be read. */
type PreparedPath = { ok: true; relative: string | null; given: string } | { ok: false; problem: string };

/** A call with its arguments interpreted once, so every rule (and every document, in `redecide`) reuses them. */
export interface PreparedCall {
  call: PolicyCall;
  shell?: ShellAnalysis;
  path?: PreparedPath;
  target?: ParsedTarget;
}

function invalidShell(problem: string): ShellAnalysis {
  return { input: '', commands: [], operators: [], redirects: [], features: [], destructive: [], dynamic: [], runsCode: [], unparsable: problem };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function shellAnalysis(args: Record<string, unknown>, context: PolicyContext): ShellAnalysis {
  // A call may name its own working directory (writes are judged from there), set variables and
  // feed stdin: all of them change what the line does.
  const withCwd: ShellContext = {
    ...context,
    ...(typeof args.cwd === 'string' ? { cwd: args.cwd } : {}),
    ...(isStringRecord(args.env) ? { env: args.env } : {}),
    ...(typeof args.stdin === 'string' ? { stdin: args.stdin } : {}),
  };
  if (typeof args.command === 'string') return analyzeShell(args.command, withCwd);
  if (Array.isArray(args.argv) && args.argv.length > 0 && args.argv.every((a) => typeof a === 'string')) {
    return analyzeArgv(args.argv as string[], withCwd);
  }
  return invalidShell('the shell call has neither a command string nor a non-empty argv list of strings');
}

function filePath(tool: string, args: Record<string, unknown>, context: PolicyContext): PreparedPath {
  // Listing and searching default to the workspace root.
  const raw = args.path ?? (tool === 'list_files' || tool === 'search_files' ? '.' : undefined);
  if (typeof raw !== 'string' || raw === '') return { ok: false, problem: 'the call has no path string' };
  const root = normalizeAbsolute(context.workspaceRoot ?? DEFAULT_WORKSPACE_ROOT);
  return { ok: true, relative: resolvePath(raw, root, root).relative, given: raw };
}

/** Interprets a call's arguments for the conditions that will look at them. */
export function prepareCall(call: PolicyCall, context: PolicyContext = {}): PreparedCall {
  const args = call.args ?? {};
  if (call.tool === SHELL_TOOL) return { call, shell: shellAnalysis(args, context) };
  if (isFileTool(call.tool)) return { call, path: filePath(call.tool, args, context) };
  if (call.tool === HTTP_TOOL) return { call, target: parseTarget(args.url, args.method) };
  return { call };
}
