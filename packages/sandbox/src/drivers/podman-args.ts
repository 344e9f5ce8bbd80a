import { EGRESS_SOCKET, entryScript } from './sandbox-env';

export interface PodmanArgsInput {
  name: string;
  rootfs: string;
  runtime: string;
  argv: string[];
  workspacePath: string;
  cwd: string;
  env: Record<string, string>;
  tmpBytes: number;
  /** Only the limits the probe saw the host apply; the rest are reported as not enforced. */
  limits: { memoryBytes?: number; pids?: number; cpus?: number };
  egressSocket?: string;
  extraReadOnly: string[];
}

/** The OCI runtimes podman may use: runc (default), crun, or gVisor's runsc. */
export const PODMAN_RUNTIMES = ['runc', 'crun', 'runsc'] as const;
export type PodmanRuntime = (typeof PODMAN_RUNTIMES)[number];

/**
 * podman's global arguments for a runtime. Rootless runsc cannot join podman's cgroups and must
 * make no network of its own (the container has `--network none`): it is told so.
 */
export function runtimeArgs(runtime: string): string[] {
  const args = ['--runtime', runtime];
  if (runtime === 'runsc') args.push('--runtime-flag=ignore-cgroups', '--runtime-flag=network=none');
  return args;
}

/**
 * `podman run` for one execution: rootless, `--userns keep-id` (the command runs as the podman
 * user's own uid, which owns the workspace, not as container root), no network, read-only root,
 * no capabilities, no privilege gain, the host /usr read-only instead of an image.
 */
export function podmanArgs(input: PodmanArgsInput): string[] {
  const args = [
    ...runtimeArgs(input.runtime),
    'run',
    '--rm',
    '-i',
    '--name',
    input.name,
    '--userns',
    'keep-id',
    '--network',
    'none',
    '--read-only',
    '--cap-drop',
    'all',
    '--security-opt',
    'no-new-privileges',
    '--hostname',
    'sandbox',
    '--log-driver',
    'none',
    '--tmpfs',
    `/tmp:rw,nosuid,nodev,size=${input.tmpBytes},mode=1777`,
    '-v',
    '/usr:/usr:ro',
    '-v',
    `${input.workspacePath}:/workspace:rw`,
    '-w',
    input.cwd,
  ];
  for (const path of ['/etc/ssl', '/etc/alternatives', '/etc/ld.so.cache', ...input.extraReadOnly]) args.push('-v', `${path}:${path}:ro`);
  if (input.limits.memoryBytes) args.push('--memory', String(input.limits.memoryBytes), '--memory-swap', String(input.limits.memoryBytes));
  if (input.limits.pids) args.push('--pids-limit', String(input.limits.pids));
  if (input.limits.cpus) args.push('--cpus', String(input.limits.cpus));
  if (input.egressSocket) args.push('-v', `${input.egressSocket}:${EGRESS_SOCKET}`);
  for (const [key, value] of Object.entries(input.env)) args.push('--env', `${key}=${value}`);
  args.push('--rootfs', input.rootfs);
  // Podman's conmon reaps the container, so the entry shell only needs to serve the egress proxy.
  if (input.egressSocket) args.push(...entryScript({ egress: true, reaper: false }));
  args.push(...input.argv);
  return args;
}
