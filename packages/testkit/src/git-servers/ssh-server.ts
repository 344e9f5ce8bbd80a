import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repositoryDirName } from './bare-repository';
import { accepts, freePort } from './free-port';
import { descendantsOf, signal } from './process-tree';
import { runCommand } from './run-command';

export interface SshGitServerOptions {
  /** Directory holding the bare repositories. */
  root: string;
  /** `authorized_keys` lines (`ssh-ed25519 AAAA… comment`) that may log in. */
  authorizedKeys: string[];
}

export interface SshGitServer {
  /** `ssh://<user>@127.0.0.1:<port><root>/<name>.git` (see `createBareRepository` for the name rule). */
  url(repoName: string): string;
  port: number;
  /** The login user: the user running the tests (sshd can only switch to itself unless root). */
  user: string;
  /** The server's public host key, `ssh-ed25519 AAAA…`. */
  hostKey: string;
  /** A `known_hosts` line for this server: `[127.0.0.1]:<port> ssh-ed25519 AAAA…`. */
  knownHosts: string;
  /** Stops sshd and every process it started, then removes its temp dir. */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const POLL_MS = 20;
const DRAIN_MS = 2_000;

function findSshd(): string {
  const dirs = ['/usr/sbin', '/usr/local/sbin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) if (dir && existsSync(join(dir, 'sshd'))) return join(dir, 'sshd');
  throw new Error('sshd not found; install it (Debian: apt-get install openssh-server)');
}

function sshdConfig(dir: string, port: number, user: string, gitShell: string, penalties: boolean): string {
  return [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey "${join(dir, 'host_ed25519')}"`,
    `PidFile "${join(dir, 'sshd.pid')}"`,
    `AuthorizedKeysFile "${join(dir, 'authorized_keys')}"`,
    'AuthenticationMethods publickey',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    `AllowUsers ${user}`,
    'StrictModes no',
    'UsePAM no',
    'UseDNS no',
    'PermitTTY no',
    'PermitUserRC no',
    'PermitUserEnvironment no',
    'AllowTcpForwarding no',
    'AllowAgentForwarding no',
    'AllowStreamLocalForwarding no',
    'X11Forwarding no',
    'PrintMotd no',
    'PrintLastLog no',
    // Protocol v2 for fetches (git passes it through `ssh -o SendEnv=GIT_PROTOCOL`).
    'AcceptEnv GIT_PROTOCOL',
    'LogLevel VERBOSE',
    // OpenSSH 9.8+ would otherwise refuse 127.0.0.1 for a while after a test's refused key.
    ...(penalties ? ['PerSourcePenalties no'] : []),
    // git-shell runs only git-upload-pack, git-receive-pack and git-upload-archive.
    `ForceCommand "${gitShell}" -c "$SSH_ORIGINAL_COMMAND"`,
    '',
  ].join('\n');
}

/** Writes a config this sshd accepts, with `PerSourcePenalties no` where the option exists. */
async function writeConfig(sshd: string, dir: string, port: number, user: string, gitShell: string): Promise<string> {
  const file = join(dir, 'sshd_config');
  await writeFile(file, sshdConfig(dir, port, user, gitShell, true), { mode: 0o600 });
  try {
    await runCommand(sshd, ['-t', '-f', file]);
  } catch (error) {
    if (!/PerSourcePenalties/.test(String(error))) throw error;
    await writeFile(file, sshdConfig(dir, port, user, gitShell, false), { mode: 0o600 });
    await runCommand(sshd, ['-t', '-f', file]);
  }
  return file;
}

/** Starts sshd and resolves once its port accepts connections; null when the port was taken meanwhile. */
async function launch(sshd: string, config: string, port: number): Promise<ChildProcess | null> {
  const child = spawn(sshd, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-16_384);
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) {
      if (/Address already in use/.test(stderr)) return null;
      throw new Error(`sshd exited during start: ${stderr.trim()}`);
    }
    if (await accepts(port)) return child;
    await delay(POLL_MS);
  }
  child.kill('SIGKILL');
  throw new Error(`sshd did not accept connections on port ${port} within ${READY_TIMEOUT_MS} ms: ${stderr.trim()}`);
}

/**
 * Runs the system's sshd on a free port of 127.0.0.1 with its own config, host key and
 * `authorized_keys` in a temp dir. Only public-key logins of the current user are accepted and
 * every login runs `git-shell`, so clients can fetch and push the repositories under `root`
 * (addressed by absolute path) and nothing else.
 */
export async function startSshGitServer(options: SshGitServerOptions): Promise<SshGitServer> {
  const sshd = findSshd();
  const user = userInfo().username;
  const gitShell = join((await runCommand('git', ['--exec-path'])).trim(), 'git-shell');
  // Debian's sshd refuses to start as root without its privilege separation directory.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) await mkdir('/run/sshd', { mode: 0o755 });

  const dir = await mkdtemp(join(tmpdir(), 'looplane-sshd-'));
  let child: ChildProcess | null = null;
  let port = 0;
  try {
    const hostKeyFile = join(dir, 'host_ed25519');
    await runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'looplane-test-host', '-f', hostKeyFile]);
    const authorized = options.authorizedKeys.map((key) => `${key.trim()}\n`).join('');
    await writeFile(join(dir, 'authorized_keys'), authorized, { mode: 0o600 });
    // The port is free when picked but sshd binds it later; another process may win, so retry.
    for (let attempt = 0; attempt < 5 && !child; attempt++) {
      port = await freePort();
      child = await launch(sshd, await writeConfig(sshd, dir, port, user, gitShell), port);
    }
    if (!child) throw new Error('sshd could not bind a free port');
    const [type, key] = (await readFile(`${hostKeyFile}.pub`, 'utf8')).trim().split(/\s+/);
    const hostKey = `${type} ${key}`;
    const daemon = child;
    const stopped = new Promise<void>((resolve) => {
      if (daemon.exitCode !== null || daemon.signalCode !== null) resolve();
      else daemon.once('exit', () => resolve());
    });
    return {
      url: (repoName) => `ssh://${user}@127.0.0.1:${port}${join(options.root, repositoryDirName(repoName))}`,
      port,
      user,
      hostKey,
      knownHosts: `[127.0.0.1]:${port} ${hostKey}`,
      close: async () => {
        const pid = daemon.pid;
        if (pid !== undefined) {
          // Connections that are ending (a readiness probe, a finished clone) are reaped by sshd
          // itself; killing them under it would leave zombies. What still runs after the grace
          // period is killed, deepest first.
          const deadline = Date.now() + DRAIN_MS;
          while (descendantsOf(pid).length > 0 && Date.now() < deadline) await delay(POLL_MS);
          for (const session of descendantsOf(pid).reverse()) signal(session, 'SIGKILL');
          signal(pid, 'SIGTERM');
        }
        await stopped;
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
