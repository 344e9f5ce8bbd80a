import { ociSeccomp } from '../seccomp/seccomp-filter';
import type { EtcFiles } from './host-layout';
import { EGRESS_SOCKET, entryScript } from './sandbox-env';

/** Host files bound read-only at the same place inside (TLS roots, alternatives, the loader cache). */
export const GVISOR_ETC_BINDS = ['/etc/ssl', '/etc/alternatives', '/etc/ld.so.cache'];

/** Empty files the rootfs holds as mount points (gVisor binds a file only onto an existing one). */
export const GVISOR_FILE_MOUNT_POINTS = ['etc/passwd', 'etc/group', 'etc/hosts', 'etc/ld.so.cache', EGRESS_SOCKET.slice(1)];

export interface GvisorSpecInput {
  argv: string[];
  rootfs: string;
  workspacePath: string;
  cwd: string;
  env: Record<string, string>;
  tmpBytes: number;
  etc: EtcFiles;
  extraReadOnly: string[];
  /** Held inside gVisor's own kernel: per-file size and processes always, address space when no memory cgroup holds the tree. */
  rlimits: { fileBytes: number; processes: number; addressSpaceBytes?: number };
  egressSocket?: string;
}

const bind = (source: string, destination: string, mode: 'ro' | 'rw') => ({ destination, type: 'bind', source, options: ['rbind', mode, 'nosuid', 'nodev'] });

/**
 * The OCI runtime spec of one execution under gVisor. The command runs as the sandbox's own uid 0
 * (rootless runsc maps the session's host uid onto it, so the workspace is writable) with every
 * capability set empty and no privilege gain; every system call it makes is served by gVisor's
 * user-space kernel, never by the host's. The root is a read-only skeleton, /usr and a few /etc
 * files come from the host read-only, the workspace read-write, /tmp is a sized tmpfs; the
 * network namespace has only loopback (runsc `--network=none`), plus the egress proxy's socket.
 */
export function gvisorSpec(input: GvisorSpecInput): Record<string, unknown> {
  const none: string[] = [];
  // The entry shell only serves the egress proxy: an exec inside gVisor costs ~10 ms per call.
  const args = input.egressSocket ? [...entryScript({ egress: true, reaper: false }), ...input.argv] : input.argv;
  const rlimits = [
    { type: 'RLIMIT_FSIZE', hard: input.rlimits.fileBytes, soft: input.rlimits.fileBytes },
    { type: 'RLIMIT_CORE', hard: 0, soft: 0 },
    // gVisor counts the sandbox's own tasks: a fork bomb fails to fork inside, before the host's pids cgroup is reached.
    { type: 'RLIMIT_NPROC', hard: input.rlimits.processes, soft: input.rlimits.processes },
    ...(input.rlimits.addressSpaceBytes ? [{ type: 'RLIMIT_AS', hard: input.rlimits.addressSpaceBytes, soft: input.rlimits.addressSpaceBytes }] : []),
  ];
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: { uid: 0, gid: 0 },
      args,
      env: Object.entries(input.env).map(([key, value]) => `${key}=${value}`),
      cwd: input.cwd,
      capabilities: { bounding: none, effective: none, inheritable: none, permitted: none, ambient: none },
      noNewPrivileges: true,
      rlimits,
    },
    root: { path: input.rootfs, readonly: true },
    hostname: 'sandbox',
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc' },
      // runsc always gives /dev as its own in-memory device directory (its options are ignored); /dev/shm is sized like /tmp.
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'noexec', 'mode=755'] },
      { destination: '/dev/shm', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'noexec', 'mode=1777', `size=${input.tmpBytes}`] },
      { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
      { destination: '/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'mode=1777', `size=${input.tmpBytes}`] },
      { destination: '/var/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'mode=1777', 'size=1m'] },
      bind('/usr', '/usr', 'ro'),
      bind(input.etc.passwd, '/etc/passwd', 'ro'),
      bind(input.etc.group, '/etc/group', 'ro'),
      bind(input.etc.hosts, '/etc/hosts', 'ro'),
      ...[...GVISOR_ETC_BINDS, ...input.extraReadOnly].map((path) => bind(path, path, 'ro')),
      bind(input.workspacePath, '/workspace', 'rw'),
      ...(input.egressSocket ? [bind(input.egressSocket, EGRESS_SOCKET, 'rw')] : []),
    ],
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }, { type: 'network' }],
      maskedPaths: ['/proc/kcore', '/proc/keys', '/proc/timer_list', '/proc/sched_debug'],
      readonlyPaths: ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus'],
      // The bwrap filter's refusals (mount, unshare, keyrings, bpf, io_uring, ...), enforced by gVisor's kernel.
      seccomp: ociSeccomp(),
    },
  };
}
