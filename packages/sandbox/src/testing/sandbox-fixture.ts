import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BwrapDriver, type BwrapDriverOptions } from '../drivers/bwrap.driver';
import { GvisorDriver } from '../drivers/gvisor.driver';
import { MicrovmDriver } from '../drivers/microvm.driver';
import type { SandboxLimitsInput } from '../limits';
import { createSandboxTools } from '../tools/create-sandbox-tools';
import type { SandboxTool } from '../tools/tool';
import type { ExecResult, SandboxDriver } from '../types';
import { WorkspaceManager, type Workspace } from '../workspace/workspace-manager';

/** The drivers a fixture can run: the launched ones, which share the per-session uid model. */
export type FixtureDriver = 'bwrap' | 'gvisor' | 'microvm';

/** Small limits, so bombs end fast and the suite fits two cores. */
const TEST_LIMITS: SandboxLimitsInput = {
  wallTimeMs: 5000,
  memoryBytes: 128 * 1024 * 1024,
  pids: 64,
  outputBytes: 64 * 1024,
  workspaceBytes: 32 * 1024 * 1024,
  workspaceFiles: 5000,
  tmpBytes: 8 * 1024 * 1024,
};

export interface SandboxFixture {
  dir: string;
  driver: SandboxDriver & { close(): Promise<void> };
  /** Which driver the fixture runs (the escape suite runs once per driver the host offers). */
  kind: FixtureDriver;
  workspaces: WorkspaceManager;
  workspace: Workspace;
  tools: Record<string, SandboxTool>;
  /** Runs a command line in the session's sandbox through the driver. */
  sh(command: string, limits?: SandboxLimitsInput, extra?: { signal?: AbortSignal; egress?: { socketPath: string } }): Promise<ExecResult>;
  /**
   * What is left of earlier calls: host processes of the session uid (a warm microVM's own QEMU
   * excepted) and, in a microVM, the session uid's processes inside the guest (listed with shell
   * builtins, so only the listing shell itself is running there).
   */
  leftovers(): Promise<string[]>;
  /** Runs a built-in tool as the worker would. */
  tool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<{ ok: boolean; output: string; commit?: string }>;
  close(): Promise<void>;
}

/** A temporary workspace root, a bwrap driver and one session's workspace and tools. */
export async function sandboxFixture(
  options: {
    sessionId?: string;
    limits?: SandboxLimitsInput;
    driver?: Partial<BwrapDriverOptions>;
    kind?: FixtureDriver;
    egress?: { socketPath: string; workerSocketPath?: string };
  } = {},
): Promise<SandboxFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-sandbox-test-'));
  await chmod(dir, 0o711); // sandbox uids must traverse it to reach their own workspace
  const kind = options.kind ?? 'bwrap';
  const common = { stateDir: join(dir, 'state'), diskCheckIntervalMs: 200, ...options.driver };
  const driver = kind === 'gvisor' ? new GvisorDriver(common) : kind === 'microvm' ? new MicrovmDriver(common) : new BwrapDriver(common);
  const workspaces = new WorkspaceManager({ root: join(dir, 'workspaces') });
  // Unique ids: uid leases are per workspace root, and test files run in parallel.
  const sessionId = options.sessionId ?? `session-${randomUUID().slice(0, 8)}`;
  const workspace = await workspaces.create(sessionId);
  const limits = { ...TEST_LIMITS, ...options.limits };
  // A microVM boots on its session's first call (seconds under TCG): the tests time calls on a warm guest.
  if (kind === 'microvm') await driver.exec({ argv: ['true'], workspace, limits });
  const list = createSandboxTools({ driver, workspaces, limits });
  const tools = Object.fromEntries(list.map((t) => [t.spec.name, t]));
  return {
    dir,
    driver,
    kind,
    workspaces,
    workspace,
    tools,
    sh: (command, extraLimits, extra = {}) =>
      driver.exec(
        { argv: ['/bin/sh', '-c', command], workspace, limits: { ...limits, ...extraLimits }, ...(extra.egress ? { egress: extra.egress } : {}) },
        extra.signal ? { signal: extra.signal } : {},
      ),
    leftovers: async () => {
      const host: string[] = [];
      for (const pid of await processesOf(workspace.uid)) {
        const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
        if (kind !== 'microvm' || !comm.startsWith('qemu-system')) host.push(`host ${pid} ${comm}`);
      }
      if (kind !== 'microvm') return host;
      const inside = await driver.exec({
        argv: [
          '/bin/sh',
          '-c',
          'for p in /proc/[0-9]*; do n=$(basename "$p"); [ "$n" = "$$" ] && continue; read -r c < "$p/comm" && echo "guest $n $c"; done; true',
        ],
        workspace,
        limits,
      });
      return [...host, ...inside.stdout.split('\n').filter(Boolean)];
    },
    tool: (name, args, signal) => {
      const tool = tools[name];
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.run(args as never, { sessionId, callId: 'call-test', ...(signal ? { signal } : {}), ...(options.egress ? { egress: options.egress } : {}) });
    },
    close: async () => {
      for (const id of await readdir(join(dir, 'workspaces')).catch(() => [])) if (!id.startsWith('.')) await workspaces.remove(id);
      await driver.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Host pids of live processes running as `uid` (how a test proves nothing of a sandbox is left). */
export async function processesOf(uid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    // A zombie runs nothing and holds nothing: it waits for the host's init (runsc's helpers are reparented there).
    if (/^State:\s+Z/m.test(status)) continue;
    const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    if (real !== undefined && Number(real) === uid) pids.push(Number(name));
  }
  return pids;
}
