import { AppError } from '@looplane/shared';
import { z } from 'zod';
import type { ExecResult } from '../types';
import type { Workspace } from '../workspace/workspace-manager';
import { workspaceRelative } from './beneath';
import { callLimits, inWorkspace, type ToolDeps } from './context';
import { formatExec } from './format';
import { defineTool, throwIfCancelled, type SandboxTool, type SandboxToolCall } from './tool';

/** Runs argv in the session's sandbox; a disk-limit kill puts the work tree back to its last commit. */
async function execIn(
  deps: ToolDeps,
  workspace: Workspace,
  argv: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string; wallTimeMs?: number },
  call: SandboxToolCall,
) {
  const limits = callLimits(deps, call);
  const wallTimeMs = Math.min(options.wallTimeMs ?? limits.wallTimeMs, limits.wallTimeMs);
  const cwd = options.cwd ? workspaceRelative(options.cwd) : undefined;
  const request = {
    argv,
    workspace,
    ...(cwd ? { cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    limits: { ...limits, wallTimeMs },
    // Only the sandbox's socket goes in: the worker's own socket skips the per-request rules.
    ...(call.egress ? { egress: { socketPath: call.egress.socketPath } } : {}),
  };
  const result: ExecResult = await deps.driver.exec(request, call.signal ? { signal: call.signal } : {}).catch((error: unknown) => {
    // A driver failure (cgroupfs, spawn) must not pass for a file-system error the model caused.
    throw error instanceof AppError ? error : new AppError('INTERNAL', `sandbox failed: ${(error as Error).message}`, { cause: error });
  });
  throwIfCancelled(call.signal);
  if (result.killedBy === 'disk-limit') await deps.workspaces.restore(call.sessionId);
  return { result, wallTimeMs };
}

/** shell and search_files: processes, so they run in the sandbox. */
export function shellTools(deps: ToolDeps): SandboxTool[] {
  const shell = defineTool(
    {
      name: 'shell',
      description:
        'Run a command in the sandbox, in the workspace (mounted at /workspace).\nGive either command (a command line run by /bin/sh -c) or argv. No network except through the egress proxy (HTTP_PROXY is set when the run has one). Processes are killed at the time limit; nothing keeps running after the call.',
      idempotent: false,
    },
    z
      .object({
        command: z.string().min(1).max(100_000).optional().describe('A command line, run by /bin/sh -c'),
        argv: z.array(z.string().max(100_000)).min(1).max(1000).optional().describe('A program and its arguments, run without a shell'),
        cwd: z.string().max(4096).optional().describe('Working directory relative to the workspace root'),
        env: z.record(z.string(), z.string()).optional().describe('Extra environment variables'),
        stdin: z.string().max(1_000_000).optional(),
        timeout_ms: z.int().min(100).optional().describe('Kill after this many milliseconds (capped by the sandbox limit)'),
      })
      .strict()
      .refine((a) => (a.command === undefined) !== (a.argv === undefined), { message: 'give exactly one of command and argv' }),
    (args, call) =>
      inWorkspace(deps, call, 'shell', async (workspace) => {
        const argv = args.argv ?? ['/bin/sh', '-c', args.command as string];
        const { result, wallTimeMs } = await execIn(
          deps,
          workspace,
          argv,
          {
            ...(args.cwd ? { cwd: args.cwd } : {}),
            ...(args.env ? { env: args.env } : {}),
            ...(args.stdin !== undefined ? { stdin: args.stdin } : {}),
            ...(args.timeout_ms ? { wallTimeMs: args.timeout_ms } : {}),
          },
          call,
        );
        return { ok: result.exitCode === 0 && !result.killedBy && !result.oomKilled, output: formatExec(result, wallTimeMs) };
      }),
  );
  const search = defineTool(
    {
      name: 'search_files',
      description:
        'Search file contents of the workspace with grep (extended regular expressions unless fixed_strings).\nReturns path:line:text for each match; binary files are skipped; symlinks are not followed.',
      idempotent: true,
    },
    z
      .object({
        pattern: z.string().min(1).max(10_000),
        path: z.string().max(4096).optional().describe('File or directory to search (default: the whole workspace)'),
        glob: z.string().max(200).optional().describe('Only files whose name matches, e.g. *.ts'),
        ignore_case: z.boolean().optional(),
        fixed_strings: z.boolean().optional(),
        max_results: z.int().min(1).max(5000).optional(),
      })
      .strict(),
    (args, call) =>
      inWorkspace(deps, call, null, async (workspace) => {
        const target = workspaceRelative(args.path ?? '.');
        const max = args.max_results ?? 200;
        const argv = [
          'grep',
          '-rnI',
          '--color=never',
          args.fixed_strings ? '-F' : '-E',
          ...(args.ignore_case ? ['-i'] : []),
          ...(args.glob ? [`--include=${args.glob}`] : []),
          '-e',
          args.pattern,
          '--',
          target,
        ];
        const { result } = await execIn(deps, workspace, argv, {}, call);
        if (result.exitCode === 1) return { ok: true, output: 'no matches' };
        if (result.exitCode !== 0 && !result.truncated)
          return { ok: false, output: result.stderr.trim() || `grep failed (${result.exitCode ?? result.signal})` };
        const all = result.stdout.split('\n');
        // A cut output ends with a partial line and the truncation marker: neither is a match.
        const lines = (result.truncated ? all.slice(0, -2) : all).filter(Boolean).map((line) => line.replace(/^\.\//, ''));
        const shown = lines.slice(0, max);
        const more = lines.length > max || result.truncated ? `\n[more matches not shown; narrow the search]` : '';
        return { ok: true, output: shown.join('\n') + more };
      }),
  );
  return [shell, search];
}
