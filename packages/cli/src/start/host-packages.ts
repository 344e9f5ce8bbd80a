import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { BACKPORTS_SOURCE, BACKPORTS_SOURCE_PATH, debianCodename, runscUsable } from './gvisor-package';
import type { Printer } from '../printer';
import { findOnPath, INSTALL_HINT } from './redis-binary';
import { runCommand } from './run-command';

/** A program Looplane runs on the host, and the Debian package that provides it. */
export interface HostTool {
  binary: string;
  package: string;
  /** The apt suite to take it from (`-t bookworm-backports`), when the release's own is too old. */
  suite?: string;
  /** Whether the installed binary is good enough (default: present on PATH). */
  usable?: (path: string) => boolean;
  /** Whether the package is installed, for packages that are not a program on PATH (a kernel image). */
  present?: () => boolean;
}

/** The private Redis of `looplane start` (only when REDIS_URL is not set). */
const REDIS_TOOL: HostTool = { binary: 'redis-server', package: 'redis-server' };

/**
 * What the worker's sandbox needs: bubblewrap runs the tools (only for the bwrap driver), gVisor's
 * runsc and crun (podman's second runtime) for the stronger rungs, socat serves the egress proxy
 * socket inside, git snapshots workspaces into the store. On bookworm runsc comes from
 * bookworm-backports (see gvisor-package.ts).
 */
export function sandboxTools(driver: string | undefined, codename: string | null = debianCodename(), offered: string[] = []): HostTool[] {
  const tools: HostTool[] = [];
  // The microVM's QEMU, kernel and static busybox are large: only when a driver list asks for it.
  if (driver === 'microvm' || offered.includes('microvm')) tools.push(...MICROVM_TOOLS);
  if ((driver ?? 'bwrap') === 'bwrap') tools.push({ binary: 'bwrap', package: 'bubblewrap' });
  tools.push(
    { binary: 'runsc', package: 'runsc', usable: runscUsable, ...(codename === 'bookworm' ? { suite: 'bookworm-backports' } : {}) },
    { binary: 'crun', package: 'crun' },
    { binary: 'socat', package: 'socat' },
    { binary: 'git', package: 'git' },
  );
  return tools;
}

/** The microvm driver's packages: QEMU, Debian's kernel (booted by the guest) and a static busybox (its init). */
const MICROVM_TOOLS: HostTool[] = [
  { binary: 'qemu-system-x86_64', package: 'qemu-system-x86' },
  { binary: 'vmlinuz', package: 'linux-image-amd64', present: () => existsSync('/boot') && readdirSync('/boot').some((name) => name.startsWith('vmlinuz-')) },
  {
    binary: 'busybox',
    package: 'busybox-static',
    present: () => existsSync('/bin/busybox') && !/ld-linux/.test(readFileSync('/bin/busybox').subarray(0, 4096).toString('latin1')),
  },
];

/** What to do about missing packages. */
export type InstallPlan =
  | { kind: 'nothing' }
  /**
   * Write these apt sources, then run these apt-get argument lists in order (one update, one
   * install per suite).
   */
  | { kind: 'apt'; packages: string[]; sources: { path: string; content: string }[]; steps: string[][] }
  /** We cannot install (not root, or no apt-get): `command` is the one line to tell the user. */
  | { kind: 'manual'; packages: string[]; command: string };

const aptInstall = (packages: string[], suite?: string) => ['install', '-y', '--no-install-recommends', ...(suite ? ['-t', suite] : []), ...packages];

type Wanted = string | Pick<HostTool, 'package' | 'suite'>;
const asTool = (wanted: Wanted) => (typeof wanted === 'string' ? { package: wanted } : wanted);

/** The one command line that installs `packages` on Debian/Ubuntu, for a user to run. */
export function installCommand(packages: Wanted[]): string {
  const tools = packages.map(asTool);
  const plain = tools.filter((tool) => !tool.suite).map((tool) => tool.package);
  const backports = tools.filter((tool) => tool.suite === 'bookworm-backports').map((tool) => tool.package);
  const lines = [
    ...(backports.length ? [`printf '${BACKPORTS_SOURCE.replace(/\n/g, '\\n')}' | sudo tee ${BACKPORTS_SOURCE_PATH}`] : []),
    'sudo apt-get update',
    ...(plain.length ? [`sudo apt-get ${aptInstall(plain).join(' ')}`] : []),
    ...(backports.length ? [`sudo apt-get ${aptInstall(backports, 'bookworm-backports').join(' ')}`] : []),
  ];
  return lines.join(' && ');
}

/** Decides how the missing `packages` get installed: by us with apt-get as root, or by the user. */
export function planInstall(packages: Wanted[], host: { isRoot: boolean; hasAptGet: boolean }): InstallPlan {
  if (packages.length === 0) return { kind: 'nothing' };
  const tools = packages.map(asTool);
  const names = tools.map((tool) => tool.package);
  if (!(host.isRoot && host.hasAptGet)) return { kind: 'manual', packages: names, command: installCommand(packages) };
  const plain = tools.filter((tool) => !tool.suite).map((tool) => tool.package);
  const backports = tools.filter((tool) => tool.suite === 'bookworm-backports').map((tool) => tool.package);
  return {
    kind: 'apt',
    packages: names,
    sources: backports.length ? [{ path: BACKPORTS_SOURCE_PATH, content: BACKPORTS_SOURCE }] : [],
    steps: [['update'], ...(plain.length ? [aptInstall(plain)] : []), ...(backports.length ? [aptInstall(backports, 'bookworm-backports')] : [])],
  };
}

export interface HostPackagesContext {
  env: Record<string, string>;
  printer: Printer;
  signal: AbortSignal;
  /** Also make sure redis-server is there (`looplane start` without REDIS_URL). */
  needRedis: boolean;
  /** LOOPLANE_SANDBOX_DRIVER (bubblewrap is only needed for bwrap, the default). */
  sandboxDriver?: string | undefined;
  /** The drivers offered besides it (LOOPLANE_SANDBOX_DRIVERS): microvm there needs its packages too. */
  sandboxDrivers?: string[];
  isRoot?: boolean;
  /** Runs `apt-get <args>`; defaults to a real child process with output shown as `apt | ...`. */
  aptGet?: (args: string[]) => Promise<void>;
  /** This host's Debian codename (default: from /etc/os-release): on bookworm runsc comes from backports. */
  codename?: string | null;
  /** Writes an apt source file (tests replace it). */
  writeSource?: (path: string, content: string) => Promise<void>;
}

/**
 * Makes sure the host has what Looplane runs: redis-server when asked, and the sandbox's
 * bubblewrap, socat and git. Missing ones are installed with apt-get when we are root on a system
 * that has it; otherwise one line says what to run. A missing redis-server then fails (with
 * {@link INSTALL_HINT}); missing sandbox packages only warn: the worker starts and its sandbox
 * reports itself unavailable. Resolves to the path of redis-server (null when not asked for).
 */
export async function ensureHostPackages(context: HostPackagesContext): Promise<{ redisServer: string | null }> {
  const { env, printer } = context;
  const tools = [
    ...(context.needRedis ? [REDIS_TOOL] : []),
    ...sandboxTools(context.sandboxDriver, context.codename === undefined ? debianCodename() : context.codename, context.sandboxDrivers ?? []),
  ];
  const missing = () =>
    tools.filter((tool) => {
      if (tool.present) return !tool.present();
      const path = findOnPath(tool.binary, env.PATH);
      return !path || (tool.usable && !tool.usable(path));
    });
  const aptGetPath = findOnPath('apt-get', env.PATH);
  const plan = planInstall(missing(), { isRoot: context.isRoot ?? userInfo().uid === 0, hasAptGet: aptGetPath !== null });

  if (plan.kind === 'apt') {
    const aptGet = context.aptGet ?? ((args: string[]) => runApt(aptGetPath!, args, context));
    const writeSource = context.writeSource ?? ((path: string, content: string) => writeFile(path, content, { mode: 0o644 }));
    printer.info(`Installing what is missing on this host (${plan.packages.join(', ')}) with apt-get…`);
    try {
      for (const source of plan.sources) {
        printer.info(`Adding the apt source ${source.path} (gVisor's runsc from bookworm-backports)`);
        await writeSource(source.path, source.content);
      }
      for (const step of plan.steps) await aptGet(step);
    } catch (error) {
      context.signal.throwIfAborted();
      printer.warn(`apt-get could not install ${plan.packages.join(', ')}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const left = missing();
  const sandboxLeft = left.filter((tool) => tool !== REDIS_TOOL);
  if (sandboxLeft.length > 0) {
    printer.warn(
      `${sandboxLeft.map((tool) => tool.package).join(', ')} not installed: the sandbox drivers that need ${sandboxLeft.length === 1 ? 'it' : 'them'} report themselves unavailable (their tool calls fail) until you run \`${installCommand(sandboxLeft)}\``,
    );
  }
  if (!context.needRedis) return { redisServer: null };
  const redisServer = findOnPath(REDIS_TOOL.binary, env.PATH);
  if (!redisServer) {
    const tried = plan.kind === 'apt' ? ` (apt-get did not put it on PATH: ${env.PATH ?? ''})` : '';
    throw new Error(`${INSTALL_HINT}${tried}`);
  }
  return { redisServer };
}

function runApt(aptGetPath: string, args: string[], context: HostPackagesContext): Promise<void> {
  return runCommand({
    name: 'apt',
    command: aptGetPath,
    args,
    cwd: '/',
    // Never prompt (no terminal may be attached).
    env: { ...context.env, DEBIAN_FRONTEND: 'noninteractive' },
    signal: context.signal,
    printer: context.printer,
  });
}
