import type { EtcFiles, SystemEntry } from './host-layout';
import { INNER_GID, INNER_UID } from './host-layout';
import { EGRESS_SOCKET, entryScript } from './sandbox-env';

// Read-only pieces of the host /etc that programs need (TLS roots, alternatives, the loader cache).
const ETC_READ_ONLY = ['/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime'];

export interface BwrapArgsInput {
  argv: string[];
  workspacePath: string;
  /** Absolute path inside the sandbox, under /workspace. */
  cwd: string;
  env: Record<string, string>;
  tmpBytes: number;
  system: SystemEntry[];
  etc: EtcFiles;
  extraReadOnly: string[];
  egressSocket?: string;
  statusFd: number;
  /** Where bwrap reads the seccomp program from; none means no filter (reported by the driver). */
  seccompFd?: number;
}

/**
 * bwrap's argv. Every namespace is unshared (network included: the only way out is the proxy
 * socket), user namespaces cannot be nested, no capability survives, the environment is cleared,
 * the host's system dirs are read-only, /tmp is a size-limited tmpfs and only the workspace is
 * writable. `--die-with-parent` plus the PID namespace make the whole tree die with bwrap.
 */
export function bwrapArgs(input: BwrapArgsInput): string[] {
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    // The entry shell is PID 1 and bwrap's direct child, so bwrap reaps the whole namespace before
    // it exits (without this, bwrap's own init is left as a zombie for the host's init to reap).
    '--as-pid-1',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--uid',
    String(INNER_UID),
    '--gid',
    String(INNER_GID),
    '--hostname',
    'sandbox',
    '--json-status-fd',
    String(input.statusFd),
  ];
  if (input.seccompFd !== undefined) args.push('--seccomp', String(input.seccompFd));
  for (const entry of input.system) {
    if (entry.kind === 'bind') args.push('--ro-bind', entry.path, entry.path);
    else args.push('--symlink', entry.target, entry.path);
  }
  for (const path of ETC_READ_ONLY) args.push('--ro-bind-try', path, path);
  args.push('--ro-bind', input.etc.passwd, '/etc/passwd', '--ro-bind', input.etc.group, '/etc/group', '--ro-bind', input.etc.hosts, '/etc/hosts');
  for (const path of input.extraReadOnly) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(input.tmpBytes), '--tmpfs', '/dev/shm');
  args.push('--size', String(input.tmpBytes), '--tmpfs', '/tmp');
  args.push('--bind', input.workspacePath, '/workspace', '--chdir', input.cwd);
  if (input.egressSocket) args.push('--ro-bind', input.egressSocket, EGRESS_SOCKET);
  // The root and /dev are private tmpfs mounts without a size limit: make them read-only, so the
  // only writable places are the workspace and the two size-limited tmpfs.
  args.push('--remount-ro', '/dev', '--remount-ro', '/');
  for (const [name, value] of Object.entries(input.env)) args.push('--setenv', name, value);
  args.push('--', ...entryScript({ egress: !!input.egressSocket, reaper: true }), ...input.argv);
  return args;
}
