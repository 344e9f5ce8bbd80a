import { AppError } from '@looplane/shared';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';

/** A top-level system path as the sandbox reproduces it: read-only bind, or the same symlink. */
export type SystemEntry = { kind: 'bind'; path: string } | { kind: 'symlink'; path: string; target: string };

// Merged-/usr hosts make /bin, /lib... symlinks into /usr; older layouts have real directories.
const TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** /usr plus each top-level system dir, reproduced as the host has it. */
export async function systemEntries(): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = [{ kind: 'bind', path: '/usr' }];
  for (const path of TOP_LEVEL) {
    const stat = await lstat(path).catch(() => null);
    if (!stat) continue;
    if (stat.isSymbolicLink()) entries.push({ kind: 'symlink', path, target: await readlink(path) });
    else if (stat.isDirectory()) entries.push({ kind: 'bind', path });
  }
  return entries;
}

/** The uid and gid processes see inside; host files are owned by the session uid, mapped onto these. */
export const INNER_UID = 1000;
export const INNER_GID = 1000;

/** Host paths of the small synthetic /etc files every sandbox gets (a name for its uid, localhost). */
export interface EtcFiles {
  passwd: string;
  group: string;
  hosts: string;
}

/**
 * Writes the synthetic /etc files into `stateDir` (world-readable: bwrap opens them as the
 * sandbox uid). Nothing of the host's /etc/passwd, /etc/group or /etc/hosts is exposed.
 */
export async function writeEtcFiles(stateDir: string, innerUid = INNER_UID): Promise<EtcFiles> {
  const dir = join(stateDir, 'etc');
  await mkdir(dir, { recursive: true, mode: 0o755 });
  await chmod(stateDir, 0o755);
  await chmod(dir, 0o755);
  const files: EtcFiles = { passwd: join(dir, 'passwd'), group: join(dir, 'group'), hosts: join(dir, 'hosts') };
  await writeFile(files.passwd, `sandbox:x:${innerUid}:${innerUid}:sandbox:/workspace:/bin/sh\n`, { mode: 0o644 });
  await writeFile(files.group, `sandbox:x:${innerUid}:\n`, { mode: 0o644 });
  await writeFile(files.hosts, '127.0.0.1\tlocalhost\n::1\tlocalhost\n', { mode: 0o644 });
  return files;
}

const O_CLOEXEC = 0o2000000;

/**
 * Descriptors above stderr that this process would pass to a child: those inherited at start
 * without close-on-exec (Node marks its own). The sandbox launcher closes them, so nothing the
 * worker's parent left open (a log pipe, a socket) reaches the sandbox.
 */
export async function inheritableFds(): Promise<number[]> {
  const fds: number[] = [];
  for (const name of await readdir('/proc/self/fdinfo').catch(() => [] as string[])) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => null);
    const flags = info && /^flags:\s*([0-7]+)/m.exec(info)?.[1];
    if (flags && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) fds.push(fd);
  }
  return fds;
}

/**
 * A minimal root filesystem for the OCI runtimes (podman, gVisor): mount points, the host's
 * /bin-style symlinks and /etc/mtab; the programs come from the host /usr bound read-only, so no
 * image is pulled. `files` are empty files made as mount points (gVisor binds files only onto
 * existing ones). Idempotent.
 */
export async function minimalRootfs(rootfs: string, files: string[] = []): Promise<void> {
  for (const dir of ['usr', 'etc', 'workspace', 'tmp', 'proc', 'dev', 'sys', 'run', 'var/tmp'])
    await mkdir(join(rootfs, dir), { recursive: true, mode: 0o755 });
  const links: [string, string][] = [['/proc/mounts', 'etc/mtab']];
  for (const entry of await systemEntries()) {
    if (entry.kind === 'symlink') links.push([entry.target, entry.path.slice(1)]);
    else if (entry.path !== '/usr') throw new AppError('PRECONDITION_FAILED', `this driver needs a merged-/usr host (${entry.path} is a directory)`);
  }
  for (const [target, path] of links) {
    if (!(await lstat(join(rootfs, path)).catch(() => null))) await symlink(target, join(rootfs, path));
  }
  for (const file of files) {
    await mkdir(join(rootfs, file, '..'), { recursive: true, mode: 0o755 });
    if (!(await lstat(join(rootfs, file)).catch(() => null))) await writeFile(join(rootfs, file), '', { mode: 0o644 });
  }
}
