import { execFile } from 'node:child_process';

/**
 * The parent's environment without any `GIT_*` variable, so a test started from inside a git hook
 * (where GIT_DIR and GIT_INDEX_FILE are set) cannot point our git children at the wrong repository.
 */
export function cleanGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, ...extra };
}

/** Runs a program to completion and returns its stdout; rejects with its stderr on a non-zero exit. */
export function runCommand(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}
