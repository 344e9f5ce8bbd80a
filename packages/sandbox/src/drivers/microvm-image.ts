import { lstat, readdir, readFile, readlink, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AppError } from '@looplane/shared';
import { cpioArchive, type CpioEntry } from './cpio-archive';
import { microvmInit } from './microvm-init';

/** The kernel modules the guest loads (with their dependencies): virtio over MMIO, the agent port, 9p, the network device. */
const GUEST_MODULES = ['virtio_mmio', 'virtio_console', '9pnet_virtio', '9p', 'virtio_net'];

/** Host /etc entries the guest gets a copy of (TLS roots, alternatives, the loader cache), as the other drivers bind them. */
const ETC_COPIES = ['/etc/ssl', '/etc/alternatives', '/etc/ld.so.cache'];

export interface GuestImage {
  kernel: string;
  /** The kernel's release (`uname -r` inside the guest). */
  release: string;
  initramfs: string;
}

/**
 * Builds the guest's initramfs from what the host has: Debian's kernel and its modules, a static
 * busybox for the init, the init script and copies of a few world-readable /etc files. Programs
 * come from the host's /usr, shared read-only at boot, so no image is downloaded. Written
 * atomically into `stateDir`, readable by every session uid (QEMU reads it as the session).
 */
export async function buildGuestImage(options: { stateDir: string; kernel?: string; busybox?: string }): Promise<GuestImage> {
  const kernel = options.kernel ?? (await newestKernel());
  const release = /vmlinuz-(.+)$/.exec(kernel)?.[1];
  if (!release) throw new AppError('PRECONDITION_FAILED', `cannot tell the kernel release from ${kernel} (expected /boot/vmlinuz-<release>)`);
  const modulesDir = `/lib/modules/${release}`;
  const dependencies = await readFile(join(modulesDir, 'modules.dep'), 'utf8').catch(() => {
    throw new AppError('PRECONDITION_FAILED', `no modules for kernel ${release} (${modulesDir}): install linux-image-amd64`);
  });
  const modules = moduleLoadOrder(dependencies, GUEST_MODULES);
  const busybox = options.busybox ?? '/bin/busybox';
  const busyboxBytes = await readFile(busybox).catch(() => {
    throw new AppError('PRECONDITION_FAILED', `no ${busybox}: install busybox-static`);
  });
  if (dynamicallyLinked(busyboxBytes)) throw new AppError('PRECONDITION_FAILED', `${busybox} is dynamically linked: install busybox-static`);

  const entries: CpioEntry[] = [];
  for (const dir of ['proc', 'sys', 'dev', 'tmp', 'workspace', 'usr', 'run', 'var', 'var/tmp'])
    entries.push({ kind: 'dir', path: dir, mode: dir.endsWith('tmp') ? 0o1777 : 0o755 });
  for (const [link, target] of [
    ['bin', 'usr/bin'],
    ['sbin', 'usr/sbin'],
    ['lib', 'usr/lib'],
    ['lib64', 'usr/lib64'],
  ] as const)
    entries.push({ kind: 'symlink', path: link, target });
  // Only root in the guest reaches /looplane: the agent's busybox, the modules and the control share.
  entries.push(
    { kind: 'dir', path: 'looplane', mode: 0o700 },
    { kind: 'dir', path: 'looplane/ctl', mode: 0o700 },
    { kind: 'dir', path: 'looplane/modules', mode: 0o700 },
  );
  entries.push({ kind: 'file', path: 'looplane/busybox', mode: 0o700, data: busyboxBytes });
  for (const module of modules)
    entries.push({ kind: 'file', path: `looplane/modules/${module.name}.ko`, mode: 0o600, data: await readFile(join(modulesDir, module.path)) });
  entries.push({ kind: 'file', path: 'looplane/modules/order', mode: 0o600, data: Buffer.from(`${modules.map((module) => module.name).join('\n')}\n`) });
  entries.push({ kind: 'file', path: 'init', mode: 0o700, data: Buffer.from(microvmInit()) });
  entries.push({ kind: 'dir', path: 'etc', mode: 0o755 });
  entries.push({ kind: 'file', path: 'etc/passwd', mode: 0o644, data: Buffer.from('root:x:0:0:root:/root:/usr/sbin/nologin\n') });
  entries.push({ kind: 'file', path: 'etc/group', mode: 0o644, data: Buffer.from('root:x:0:\n') });
  entries.push({ kind: 'file', path: 'etc/hosts', mode: 0o644, data: Buffer.from('127.0.0.1\tlocalhost\n::1\tlocalhost\n') });
  entries.push({ kind: 'symlink', path: 'etc/mtab', target: '/proc/mounts' });
  for (const path of ETC_COPIES) await copyWorldReadable(path, entries);

  const target = join(options.stateDir, `initramfs-${release}.cpio.gz`);
  await writeFile(`${target}.tmp`, gzipSync(cpioArchive(entries), { level: 1 }), { mode: 0o644 });
  await rename(`${target}.tmp`, target);
  return { kernel, release, initramfs: target };
}

/** The newest /boot/vmlinuz-* (Debian's linux-image-amd64 installs one). */
async function newestKernel(): Promise<string> {
  const names = (await readdir('/boot').catch(() => [] as string[])).filter((name) => name.startsWith('vmlinuz-')).sort(compareReleases);
  const newest = names.at(-1);
  if (!newest) throw new AppError('PRECONDITION_FAILED', 'no kernel in /boot for the microVM: install linux-image-amd64');
  return join('/boot', newest);
}

function compareReleases(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** The modules to insmod, dependencies first, from a `modules.dep` file (`path: dep dep ...`). */
export function moduleLoadOrder(modulesDep: string, wanted: string[]): { name: string; path: string }[] {
  const byName = new Map<string, { path: string; deps: string[] }>();
  for (const line of modulesDep.split('\n')) {
    const [path, deps] = line.split(':');
    if (!path || deps === undefined) continue;
    byName.set(moduleName(path), { path, deps: deps.trim().split(/\s+/).filter(Boolean).map(moduleName) });
  }
  const order: { name: string; path: string }[] = [];
  const visit = (name: string, chain: string[]) => {
    if (order.some((module) => module.name === name)) return;
    const module = byName.get(name);
    if (!module)
      throw new AppError('PRECONDITION_FAILED', `the kernel has no module ${name} (needed by the microVM${chain.length ? ` for ${chain.join(' → ')}` : ''})`);
    if (chain.includes(name)) return;
    for (const dep of module.deps) visit(dep, [...chain, name]);
    order.push({ name, path: module.path });
  };
  for (const name of wanted) visit(name, []);
  return order;
}

function moduleName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.ko(\.(xz|gz|zst))?$/, '');
}

/** Whether an ELF executable names a program interpreter (PT_INTERP), i.e. needs a dynamic loader. */
export function dynamicallyLinked(elf: Buffer): boolean {
  if (elf.length < 64 || elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2) return false;
  const phoff = Number(elf.readBigUInt64LE(32));
  const phentsize = elf.readUInt16LE(54);
  const phnum = elf.readUInt16LE(56);
  for (let index = 0; index < phnum; index++) {
    const at = phoff + index * phentsize;
    if (at + 4 <= elf.length && elf.readUInt32LE(at) === 3) return true;
  }
  return false;
}

/** Adds `path` (recursively) to the archive, skipping anything another uid could not read on the host. */
async function copyWorldReadable(path: string, entries: CpioEntry[]): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (!info) return;
  const relative = path.slice(1);
  if (info.isSymbolicLink()) entries.push({ kind: 'symlink', path: relative, target: await readlink(path) });
  else if (info.isDirectory()) {
    if ((info.mode & 0o005) !== 0o005) return;
    entries.push({ kind: 'dir', path: relative, mode: info.mode & 0o755 });
    for (const name of (await readdir(path)).sort()) await copyWorldReadable(join(path, name), entries);
  } else if (info.isFile() && (info.mode & 0o004) !== 0) entries.push({ kind: 'file', path: relative, mode: info.mode & 0o755, data: await readFile(path) });
}
