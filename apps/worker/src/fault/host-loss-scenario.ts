import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, TERMINAL_RUN_STATUSES, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { WorkspaceReader, type WorkspaceStore } from '@looplane/workspaces';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorker } from '../../build.mjs';
import { auditRuns, jitter } from '../testing/fault-harness';
import { createToolCallsTable } from '../testing/test-tools';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { HostFleet, type Host } from './host-fleet';
import { CONCAT_COMMAND, expectedFiles, tarFiles } from './workspace-expectations';

/** The catalogue entries of the sandbox tools the scripts use. */
export const FILE_TOOLS: RunConfigInput['tools'] = [
  {
    name: 'write_file',
    description: 'Write a file.',
    idempotent: false,
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
  {
    name: 'read_file',
    description: 'Read a file.',
    idempotent: true,
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  { name: 'shell', description: 'Run a command.', idempotent: false, parameters: { type: 'object', properties: { command: { type: 'string' } } } },
];

/** Writes under gate/ wait for an approver; everything else is allowed. */
export const GATED_POLICY = {
  version: 1,
  name: 'host-loss',
  default: 'allow',
  rules: [{ id: 'gate', match: { tool: 'write_file', paths: ['gate/**'] }, outcome: 'require_approval', reason: 'gated write', risk: 'low' }],
};

/** Six turns over several files, parking once on an approval; the shell line reads files written before the wait. */
function fileScript(n: number): ScriptTurn[] {
  return [
    { calls: [{ tool: 'write_file', args: { path: 'a.txt', content: `run ${n} a\n` } }] },
    { calls: [{ tool: 'write_file', args: { path: 'dir/b.txt', content: `run ${n} b\n` } }] },
    { calls: [{ tool: 'write_file', args: { path: 'gate/c.txt', content: `run ${n} c\n` } }] },
    { calls: [{ tool: 'shell', args: { command: CONCAT_COMMAND } }] },
    { calls: [{ tool: 'read_file', args: { path: 'dir/ab.txt' } }] },
    { finish: `run ${n} done` },
  ];
}

/** The script of a branch forked after the second write (two model turns): it checks the files it starts with. */
export const FORK_SCRIPT: ScriptTurn[] = [
  { finish: 'unused' },
  { finish: 'unused' },
  { calls: [{ tool: 'shell', args: { command: 'test -f a.txt && test -f dir/b.txt && test ! -e gate/c.txt && echo fork-ok > fork.txt' } }] },
  { finish: 'branch done' },
];

export interface HostLossContext {
  t: TestDatabase;
  pool: PgPool;
  client: TestClient;
  fx: TeamFixture;
  deps: ApiDeps;
  fleet: HostFleet;
  close(): Promise<void>;
}

/** A test database, the team, the API with a reader on `store`, and a fleet of `hosts` worker processes. */
export async function setUpHostLoss(options: {
  hosts: number;
  store: (pool: PgPool) => WorkspaceStore;
  storeEnv: Record<string, string>;
  label: string;
}): Promise<HostLossContext> {
  const bundle = (await buildWorker())['worker-with-test-tools'];
  const t = await createTestDatabase();
  const pool = createPgPool(t.url, { max: 6 });
  await createToolCallsTable(pool);
  const prefix = uniquePrefix(options.label);
  const client = await createTestClient(prefix);
  const fx = await createTeamFixture(t.db);
  await t.db.policy.create({ data: { teamId: fx.teamId, name: 'host-loss', activeVersion: 1, versions: { create: { version: 1, document: GATED_POLICY } } } });
  const cacheDir = mkdtempSync(join(tmpdir(), 'looplane-reader-'));
  const deps: ApiDeps = {
    db: t.db,
    dispatch: createDispatch(client.queue, client.bus),
    workspaces: new WorkspaceReader({ store: options.store(pool), cacheDir }),
  };
  const fleet = new HostFleet(
    {
      DATABASE_URL: t.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: prefix,
      WORKER_CONCURRENCY: '40',
      LEASE_TTL_MS: '1500',
      RECONCILE_INTERVAL_MS: '300',
      RECONCILE_IDLE_MS: '3000',
      DATABASE_POOL_SIZE: '6',
      LOOPLANE_SANDBOX_DRIVER: 'bwrap',
      ...options.storeEnv,
    },
    bundle,
  );
  for (let i = 0; i < options.hosts; i++) await fleet.add();
  return {
    t,
    pool,
    client,
    fx,
    deps,
    fleet,
    async close() {
      await fleet.close();
      await client.close();
      await pool.end();
      await t.drop();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Every file of a session at its latest event, read through `sessions.files` (directories walked). */
export async function filesThroughApi(ctx: HostLossContext, sessionId: string): Promise<Record<string, string>> {
  const api = await callerAs(ctx.deps, { userId: ctx.fx.members.viewer.id });
  const files: Record<string, string> = {};
  const walk = async (path: string) => {
    const { node } = await api.sessions.files({ teamId: ctx.fx.teamId, sessionId, path });
    if (node.kind === 'file') files[node.path] = node.content;
    else for (const entry of node.entries) await walk(entry.path);
  };
  await walk('');
  return files;
}

/** The same files, from the workspace download (the reader's tarball at the session's head). */
export async function filesThroughTarball(ctx: HostLossContext, sessionId: string): Promise<Record<string, string>> {
  const api = await callerAs(ctx.deps, { userId: ctx.fx.members.viewer.id });
  const { runId, commit } = await api.sessions.files({ teamId: ctx.fx.teamId, sessionId, path: '' });
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.deps.workspaces!.archive(runId, commit)) chunks.push(chunk as Buffer);
  return tarFiles(Buffer.concat(chunks));
}

/** A session's tool calls that finished (not interrupted), in order, with their arguments. */
export async function finishedCalls(
  ctx: HostLossContext,
  sessionId: string,
): Promise<{ name: string; args: Record<string, unknown>; ok: boolean; output: string }[]> {
  const events = await ctx.t.db.event.findMany({ where: { sessionId, type: { in: ['tool.started', 'tool.finished'] } }, orderBy: { seq: 'asc' } });
  const started = new Map<string, { name: string; args: Record<string, unknown> }>();
  const calls: { name: string; args: Record<string, unknown>; ok: boolean; output: string }[] = [];
  for (const event of events) {
    const p = event.payload as { callId: string; name?: string; args?: Record<string, unknown>; ok?: boolean; output?: string };
    if (event.type === 'tool.started') started.set(p.callId, { name: p.name ?? '', args: p.args ?? {} });
    else {
      const call = started.get(p.callId);
      if (call) calls.push({ ...call, ok: p.ok === true, output: p.output ?? '' });
    }
  }
  return calls;
}

/** How many approvals are given only after the host that ran their session was lost. */
const APPROVAL_LOSSES = 12;

export interface HostLossOutcome {
  runs: { runId: string; sessionId: string }[];
  approvedAfterHostLoss: Set<string>;
  losses: number;
}

/**
 * Starts `count` runs in waves and drives them to the end: approves every approval (losing the
 * host that ran the session first, for the first {@link APPROVAL_LOSSES} gated writes), and loses
 * random hosts that hold running sessions meanwhile.
 */
export async function driveRuns(ctx: HostLossContext, count: number, randomLosses: number): Promise<HostLossOutcome> {
  const { t, fx, fleet } = ctx;
  const runs: { runId: string; sessionId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const agent = await createTestAgent(t.db, fx.teamId, { script: fileScript(i), thinkMs: jitter(50, 250) });
    runs.push(await createTestRun(t.db, agent, { config: { tools: FILE_TOOLS, toolLoading: 'eager' } }));
  }
  const ids = runs.map((r) => r.runId);
  const unfinished = () => t.db.run.count({ where: { id: { in: ids }, status: { notIn: [...TERMINAL_RUN_STATUSES] } } });
  const approver = await callerAs(ctx.deps, { userId: fx.members.approver.id });
  const approvedAfterHostLoss = new Set<string>();
  let losses = 0;
  let gated = 0;
  let done = false;

  const enqueueing = (async () => {
    for (let i = 0; i < runs.length; i += 10) {
      for (const run of runs.slice(i, i + 10)) await ctx.client.enqueue({ ...run, reason: 'start' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  })();
  // Gated writes are approved once every run is parked on its own (or finished): then losing the
  // host that ran a session right before approving it interrupts nothing else that is running.
  const parked = async () => {
    const gatedPending = await t.db.approval.count({ where: { runId: { in: ids }, status: 'pending', kind: 'tool', tool: 'write_file' } });
    return gatedPending > 0 && gatedPending + (runs.length - (await unfinished())) >= runs.length;
  };
  let releasing = false;
  const approving = (async () => {
    while (!done) {
      releasing ||= await parked();
      const pending = await t.db.approval.findMany({ where: { runId: { in: ids }, status: 'pending' }, orderBy: { createdAt: 'asc' } });
      for (const approval of pending) {
        const gatedWrite = (approval.args as { path?: string } | null)?.path === 'gate/c.txt';
        if (gatedWrite && !releasing) continue;
        // The first APPROVAL_LOSSES gated writes are approved after the host that ran the session is lost.
        const host: Host | undefined = gatedWrite && gated < APPROVAL_LOSSES ? fleet.holding(approval.sessionId) : undefined;
        if (host) {
          gated++;
          await fleet.lose(host);
          losses++;
        }
        if (gatedWrite && fleet.lostSessions.has(approval.sessionId)) approvedAfterHostLoss.add(approval.runId);
        await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve' });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const losing = (async () => {
    for (let n = 0; n < randomLosses && !done; n++) {
      await new Promise((resolve) => setTimeout(resolve, jitter(1500, 3000)));
      const holding = await t.db.session.findMany({
        where: { runId: { in: ids }, status: 'running', leaseOwner: { not: null } },
        select: { leaseOwner: true },
      });
      const busy = fleet.live().filter((h) => holding.some((s) => s.leaseOwner === h.id));
      const victim = busy[Math.floor(Math.random() * busy.length)];
      if (victim) {
        await fleet.lose(victim);
        losses++;
      }
    }
  })();
  try {
    await enqueueing;
    await waitFor(async () => (await unfinished()) === 0, 180_000, 'every run to finish');
  } finally {
    done = true;
    await Promise.all([approving, losing]);
  }
  return { runs, approvedAfterHostLoss, losses };
}

export { auditRuns, expectedFiles };
