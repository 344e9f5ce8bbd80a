import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BwrapDriver, type BwrapDriverOptions } from '../drivers/bwrap.driver';
import type { SandboxLimitsInput } from '../limits';
import { createSandboxTools } from '../tools/create-sandbox-tools';
import type { SandboxTool } from '../tools/tool';
import type { ExecResult } from '../types';
import { WorkspaceManager, type Workspace } from '../workspace/workspace-manager';

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
  driver: BwrapDriver;
  workspaces: WorkspaceManager;
  workspace: Workspace;
  tools: Record<string, SandboxTool>;
  /** Runs a command line in the session's sandbox through the driver. */
  sh(command: string, limits?: SandboxLimitsInput, extra?: { signal?: AbortSignal; egress?: { socketPath: string } }): Promise<ExecResult>;
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
    egress?: { socketPath: string; workerSocketPath?: string };
  } = {},
): Promise<SandboxFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-sandbox-test-'));
  await chmod(dir, 0o711); // sandbox uids must traverse it to reach their own workspace
  const driver = new BwrapDriver({ stateDir: join(dir, 'state'), diskCheckIntervalMs: 200, ...options.driver });
  const workspaces = new WorkspaceManager({ root: join(dir, 'workspaces') });
  // Unique ids: uid leases are per workspace root, and test files run in parallel.
  const sessionId = options.sessionId ?? `session-${randomUUID().slice(0, 8)}`;
  const workspace = await workspaces.create(sessionId);
  const limits = { ...TEST_LIMITS, ...options.limits };
  const list = createSandboxTools({ driver, workspaces, limits });
  const tools = Object.fromEntries(list.map((t) => [t.spec.name, t]));
  return {
    dir,
    driver,
    workspaces,
    workspace,
    tools,
    sh: (command, extraLimits, extra = {}) =>
      driver.exec(
        { argv: ['/bin/sh', '-c', command], workspace, limits: { ...limits, ...extraLimits }, ...(extra.egress ? { egress: extra.egress } : {}) },
        extra.signal ? { signal: extra.signal } : {},
      ),
    tool: (name, args, signal) => {
      const tool = tools[name];
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.run(args as never, { sessionId, callId: 'call-test', ...(signal ? { signal } : {}), ...(options.egress ? { egress: options.egress } : {}) });
    },
    close: async () => {
      for (const id of await readdir(join(dir, 'workspaces')).catch(() => [])) if (!id.startsWith('.')) await workspaces.remove(id);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Host pids of processes running as `uid` (how a test proves nothing of a sandbox is left). */
export async function processesOf(uid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    if (real !== undefined && Number(real) === uid) pids.push(Number(name));
  }
  return pids;
}
