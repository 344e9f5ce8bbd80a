// Where and on what a benchmark result was measured, for the results JSON.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The machine a result came from. */
export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  return {
    cpu: model,
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.versions.node,
    git: execFileSync('git', ['--version']).toString().trim(),
  };
}

/** The commit measured, and whether the workspace store's code had uncommitted changes. */
export function gitCommit(): { commit: string; workspacesPackageDirty: boolean } {
  const run = (args: string[]) => execFileSync('git', args, { cwd: root }).toString().trim();
  try {
    return { commit: run(['rev-parse', '--short', 'HEAD']), workspacesPackageDirty: run(['status', '--porcelain', '--', 'packages/workspaces']) !== '' };
  } catch {
    return { commit: 'unknown', workspacesPackageDirty: false };
  }
}
