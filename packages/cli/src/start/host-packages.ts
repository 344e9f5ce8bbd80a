import { userInfo } from 'node:os';
import type { Printer } from '../printer';
import { findOnPath, INSTALL_HINT } from './redis-binary';
import { runCommand } from './run-command';

/** A program Looplane runs on the host, and the Debian package that provides it. */
export interface HostTool {
  binary: string;
  package: string;
}

/** The private Redis of `looplane start` (only when REDIS_URL is not set). */
const REDIS_TOOL: HostTool = { binary: 'redis-server', package: 'redis-server' };

/**
 * What the worker's sandbox needs: bubblewrap runs the tools (only for the bwrap driver), socat
 * serves the egress proxy socket inside it, git snapshots workspaces into the store.
 */
export function sandboxTools(driver: string | undefined): HostTool[] {
  const tools: HostTool[] = [];
  if ((driver ?? 'bwrap') === 'bwrap') tools.push({ binary: 'bwrap', package: 'bubblewrap' });
  tools.push({ binary: 'socat', package: 'socat' }, { binary: 'git', package: 'git' });
  return tools;
}

/** What to do about missing packages. */
export type InstallPlan =
  | { kind: 'nothing' }
  /** Run these apt-get argument lists, in order (one update, one install of everything missing). */
  | { kind: 'apt'; packages: string[]; steps: string[][] }
  /** We cannot install (not root, or no apt-get): `command` is the one line to tell the user. */
  | { kind: 'manual'; packages: string[]; command: string };

const aptInstall = (packages: string[]) => ['install', '-y', '--no-install-recommends', ...packages];

/** The one command line that installs `packages` on Debian/Ubuntu, for a user to run. */
export function installCommand(packages: string[]): string {
  return `sudo apt-get update && sudo apt-get ${aptInstall(packages).join(' ')}`;
}

/** Decides how the missing `packages` get installed: by us with apt-get as root, or by the user. */
export function planInstall(packages: string[], host: { isRoot: boolean; hasAptGet: boolean }): InstallPlan {
  if (packages.length === 0) return { kind: 'nothing' };
  if (host.isRoot && host.hasAptGet) return { kind: 'apt', packages, steps: [['update'], aptInstall(packages)] };
  return { kind: 'manual', packages, command: installCommand(packages) };
}

export interface HostPackagesContext {
  env: Record<string, string>;
  printer: Printer;
  signal: AbortSignal;
  /** Also make sure redis-server is there (`looplane start` without REDIS_URL). */
  needRedis: boolean;
  /** LOOPLANE_SANDBOX_DRIVER (bubblewrap is only needed for bwrap, the default). */
  sandboxDriver?: string | undefined;
  isRoot?: boolean;
  /** Runs `apt-get <args>`; defaults to a real child process with output shown as `apt | ...`. */
  aptGet?: (args: string[]) => Promise<void>;
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
  const tools = [...(context.needRedis ? [REDIS_TOOL] : []), ...sandboxTools(context.sandboxDriver)];
  const missing = () => tools.filter((tool) => !findOnPath(tool.binary, env.PATH));
  const aptGetPath = findOnPath('apt-get', env.PATH);
  const plan = planInstall(
    missing().map((tool) => tool.package),
    { isRoot: context.isRoot ?? userInfo().uid === 0, hasAptGet: aptGetPath !== null },
  );

  if (plan.kind === 'apt') {
    const aptGet = context.aptGet ?? ((args: string[]) => runApt(aptGetPath!, args, context));
    printer.info(`Installing what is missing on this host (${plan.packages.join(', ')}) with apt-get…`);
    try {
      for (const step of plan.steps) await aptGet(step);
    } catch (error) {
      context.signal.throwIfAborted();
      printer.warn(`apt-get could not install ${plan.packages.join(', ')}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const left = missing();
  const sandboxLeft = left.filter((tool) => tool !== REDIS_TOOL).map((tool) => tool.package);
  if (sandboxLeft.length > 0) {
    printer.warn(
      `${sandboxLeft.join(', ')} not installed: the sandbox reports itself unavailable (sandboxed tool calls fail) until you run \`${installCommand(sandboxLeft)}\``,
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
