import type { ExecResult } from '../types';

/** Says why the sandbox ended a command, in words the model can act on. */
function killNote(result: ExecResult, wallTimeMs: number): string | null {
  if (result.oomKilled) return 'a process was killed for exceeding the memory limit';
  switch (result.killedBy) {
    case 'timeout':
      return `killed: the ${wallTimeMs} ms time limit was reached`;
    case 'output-limit':
      return 'killed: the output limit was reached';
    case 'disk-limit':
      return 'killed: the workspace disk limit was exceeded; the workspace was reset to its last commit';
    case 'cancel':
      return 'cancelled';
    default:
      return null;
  }
}

/** The shell tool's output: exit status, then both streams, each labelled. */
export function formatExec(result: ExecResult, wallTimeMs: number): string {
  const status = result.exitCode !== null ? `exit code: ${result.exitCode}` : `terminated by ${result.signal ?? 'signal'}`;
  const note = killNote(result, wallTimeMs);
  const parts = [note ? `${status} (${note})` : status];
  if (result.stdout) parts.push(`--- stdout ---\n${result.stdout}`);
  if (result.stderr) parts.push(`--- stderr ---\n${result.stderr}`);
  return parts.join('\n');
}
