import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the worker authenticates to a remote with: never in a URL, an argument, a file the sandbox sees, or a log. */
export type RepositoryCredential = { kind: 'token'; username: string; token: string } | { kind: 'ssh_key'; privateKey: string };

/** Settings for every remote git call: nothing a repository or the host's config could plant runs, and no redirect carries the credential off. */
const HARDENING = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.symlinks=true',
  'commit.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.detachedHead=false',
  'init.defaultBranch=main',
  'safe.directory=*',
  // A redirect could send the Authorization header to another host.
  'http.followRedirects=false',
  'protocol.allow=never',
  'protocol.https.allow=always',
  'protocol.http.allow=always',
  'protocol.ssh.allow=always',
  'protocol.file.allow=always',
  'submodule.recurse=false',
];

export interface RemoteGitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A private scratch directory for one remote operation (HOME, the ssh key, known_hosts), owned by
 * the worker (0700) and removed afterwards: the sandbox never sees it.
 */
export class RemoteGit {
  private constructor(
    private readonly scratch: string,
    private readonly credential: RepositoryCredential | null,
    private readonly env: Record<string, string>,
  ) {}

  static async open(credential: RepositoryCredential | null): Promise<RemoteGit> {
    const scratch = await mkdtemp(join(tmpdir(), 'looplane-remote-'));
    await chmod(scratch, 0o700);
    const env: Record<string, string> = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: scratch,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: '/bin/false',
      SSH_ASKPASS: '/bin/false',
      GIT_ALLOW_PROTOCOL: 'https:http:ssh:file',
      GIT_AUTHOR_NAME: 'Looplane',
      GIT_AUTHOR_EMAIL: 'agent@looplane.invalid',
      GIT_COMMITTER_NAME: 'Looplane',
      GIT_COMMITTER_EMAIL: 'agent@looplane.invalid',
    };
    const knownHosts = join(scratch, 'known_hosts');
    let ssh = `ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=${knownHosts}`;
    if (credential?.kind === 'token') {
      // Through the environment (GIT_CONFIG_*), not `-c`: arguments are visible in every process list.
      const basic = Buffer.from(`${credential.username}:${credential.token}`).toString('base64');
      Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` });
    } else if (credential?.kind === 'ssh_key') {
      const key = join(scratch, 'id');
      await writeFile(key, credential.privateKey.endsWith('\n') ? credential.privateKey : `${credential.privateKey}\n`, { mode: 0o600 });
      ssh += ` -i ${key} -o IdentitiesOnly=yes`;
    } else ssh += ' -o PasswordAuthentication=no';
    env.GIT_SSH_COMMAND = ssh;
    return new RemoteGit(scratch, credential, env);
  }

  /** Runs git (`cwd`: where; `gitDir`: an explicit repository). Never throws for a non-zero exit: callers read `code` and `stderr`. */
  run(
    args: string[],
    options: { cwd?: string; gitDir?: string; workTree?: string; timeoutMs?: number; extraEnv?: Record<string, string> } = {},
  ): Promise<RemoteGitResult> {
    const env = { ...this.env, ...(options.extraEnv ?? {}) };
    if (options.gitDir) env.GIT_DIR = options.gitDir;
    if (options.workTree) env.GIT_WORK_TREE = options.workTree;
    const argv = [...HARDENING.flatMap((setting) => ['-c', setting]), ...args];
    return new Promise((resolve) => {
      execFile(
        'git',
        argv,
        { env, cwd: options.cwd ?? this.scratch, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          const timedOut = error && 'killed' in error && error.killed;
          resolve({ code, stdout, stderr: this.redact(`${stderr}${timedOut ? '\ngit was stopped: it ran past its time limit' : ''}`) });
        },
      );
    });
  }

  /** Removes every trace of the credential's value (and its basic-auth form) from text that may be shown or logged. */
  redact(text: string): string {
    const credential = this.credential;
    if (!credential) return text;
    const secrets =
      credential.kind === 'token'
        ? [credential.token, Buffer.from(`${credential.username}:${credential.token}`).toString('base64'), encodeURIComponent(credential.token)]
        : [credential.privateKey.trim()];
    let out = text;
    for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    return out;
  }

  async close(): Promise<void> {
    await rm(this.scratch, { recursive: true, force: true });
  }
}

/** A remote git failure in words a person can act on, from git's (already redacted) stderr. */
export function remoteFailure(what: string, url: string, result: RemoteGitResult): string {
  const err = result.stderr;
  if (
    /Authentication failed|could not read Username|HTTP 401|HTTP 403|Permission denied \(publickey|terminal prompts disabled|The requested URL returned error: 40[13]/i.test(
      err,
    )
  ) {
    return `${what}: ${url} refused the credentials (authentication failed)`;
  }
  if (/couldn't find remote ref|not our ref|unadvertised object|no such ref|invalid refspec/i.test(err)) return `${what}: the ref does not exist in ${url}`;
  if (
    /Could not resolve host|Connection refused|Connection timed out|Network is unreachable|Failed to connect|unable to access|Could not read from remote repository/i.test(
      err,
    )
  ) {
    return `${what}: cannot reach ${url} (${lastLine(err)})`;
  }
  if (/does not appear to be a git repository|repository .* not found|not found/i.test(err)) return `${what}: no repository at ${url}`;
  return `${what} failed (${lastLine(err) || `exit ${result.code}`})`;
}

function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '');
  return (lines[lines.length - 1] ?? '').replace(/^(fatal|error):\s*/, '').slice(0, 300);
}
