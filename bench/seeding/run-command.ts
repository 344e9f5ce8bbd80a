import { execFile } from 'node:child_process';

/**
 * Runs a program to completion and returns its stdout. Asynchronous on purpose: the git server the
 * benchmark serves from runs in this process and must keep answering meanwhile.
 */
export function run(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || error.message}`)) : resolve(stdout),
    );
  });
}
