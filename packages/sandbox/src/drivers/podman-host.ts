import { homedir } from 'node:os';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '@looplane/shared';
import { chownTree } from '../workspace/ownership';
import { minimalRootfs } from './host-layout';
import { runtimeArgs } from './podman-args';

/** The account podman runs as, and how to launch it as that account. */
export interface PodmanUser {
  uid: number;
  gid: number;
  spawn: { uid?: number; gid?: number };
  env: Record<string, string>;
}

const DEFAULT_USER = 'looplane-podman';

/** Looks the podman account up (root) or takes the worker's own (non-root). */
export async function resolvePodmanUser(name = DEFAULT_USER): Promise<PodmanUser> {
  const base = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', LANG: 'C.UTF-8' };
  if (process.getuid?.() !== 0) {
    return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, spawn: {}, env: { ...base, HOME: homedir() } };
  }
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((l) => l.split(':')[0] === name);
  const hint = `useradd --system --create-home --home-dir /var/lib/${name} --shell /usr/sbin/nologin ${name} && usermod --add-subuids 1200000-1265535 --add-subgids 1200000-1265535 ${name}`;
  if (!line) throw new AppError('PRECONDITION_FAILED', `podman needs an unprivileged account with subordinate ids; none named ${name} exists (${hint})`);
  const [, , uid, gid, , home] = line.split(':');
  const subuid = await readFile('/etc/subuid', 'utf8').catch(() => '');
  if (!subuid.split('\n').some((l) => l.startsWith(`${name}:`))) throw new AppError('PRECONDITION_FAILED', `${name} has no /etc/subuid range (${hint})`);
  return { uid: Number(uid), gid: Number(gid), spawn: { uid: Number(uid), gid: Number(gid) }, env: { ...base, HOME: home || `/var/lib/${name}` } };
}

/** The minimal root filesystem (see `minimalRootfs`), owned by the podman account. */
export async function preparePodmanRootfs(stateDir: string, user: PodmanUser): Promise<string> {
  await mkdir(stateDir, { recursive: true, mode: 0o755 });
  await chmod(stateDir, 0o755);
  const rootfs = join(stateDir, `podman-rootfs-${user.uid}`);
  await minimalRootfs(rootfs);
  await chownTree(rootfs, user.uid, user.gid);
  return rootfs;
}

/**
 * Runs one container with small limits and reads its cgroup files from inside: the only honest
 * test, since on cgroup v1 rootless podman prints a warning and runs without them.
 */
export async function probePodmanLimits(
  podman: (args: string[]) => Promise<string>,
  runtime: string,
  rootfs: string,
): Promise<{ kernelLimits: { memory: boolean; pids: boolean; cpu: boolean }; note: string | null }> {
  const memory = 64 * 1024 * 1024;
  const out = await podman([
    ...runtimeArgs(runtime),
    'run',
    '--rm',
    '--userns',
    'keep-id',
    '--network',
    'none',
    '--log-driver',
    'none',
    '--memory',
    String(memory),
    '--pids-limit',
    '64',
    '--cpus',
    '0.5',
    '-v',
    '/usr:/usr:ro',
    '--rootfs',
    rootfs,
    '/bin/sh',
    '-c',
    `for f in memory.max pids.max cpu.max; do echo "$f=$(cat /sys/fs/cgroup/$f 2>/dev/null)"; done`,
  ]);
  const value = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(out)?.[1]?.trim() ?? '';
  const kernelLimits = { memory: value('memory.max') === String(memory), pids: value('pids.max') === '64', cpu: value('cpu.max') === '50000 100000' };
  const all = kernelLimits.memory && kernelLimits.pids && kernelLimits.cpu;
  return {
    kernelLimits,
    note: all
      ? null
      : 'rootless podman on this host runs containers without their memory/pids/cpu limits (cgroup v1, or cgroup v2 without delegated controllers)',
  };
}
