// Vitest-only: registers hooks, like `testbed.ts`, so it stays out of `./index.ts`.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createPgPool, SecretBox, type Db, type PgPool } from '@looplane/db';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import type { ApiDeps } from '../context';
import { graphFixture } from '../routers/graphs.fixtures';
import { appendCommittedCall, appendSeed, beginSessionLog, finishSessionLog, openApproval } from '../routers/sessions.fixtures';
import { callerAs, createAgentFixture, createTeamFixture, type AgentFixture, type TeamFixture } from './fixtures';
import { createTestLive, type TestLive } from './live';

type GraphFixture = Awaited<ReturnType<typeof graphFixture>>;

/**
 * What the authorization matrix and its cross-team cases act on: a team with a member of every
 * role, its agent and run, the other team's agent and run, and the resources procedures need.
 * Everything is read through getters, and exists only once the world's `beforeAll` ran.
 */
export interface AuthzWorld {
  /** The Prisma client of the file's own throwaway database. */
  readonly db: Db;
  readonly live: TestLive;
  readonly deps: ApiDeps;
  readonly fx: TeamFixture;
  /** The team's agent, and a run of it. */
  readonly agent: AgentFixture;
  readonly runId: string;
  /** The other team's agent and run, for the cross-team cases. */
  readonly foreign: AgentFixture & { runId: string };
  /** A number no earlier call returned, for unique names. */
  next(): number;
  /** A new run of `agentId` in `teamId`, started by `userId` (the team's admin unless given). */
  startRun(teamId: string, agentId: string, userId?: string): Promise<string>;
  /** A pending approval on the run's main session (each with its own request seq). */
  pendingApproval(forRunId: string): Promise<string>;
  /** A session of the team whose log has begun (`run.started`, as the worker writes it), so it can be forked at event 1 (made once). */
  startedSession(): Promise<string>;
  /** A branch that finished (its log and its row), for `sessions.resume`. */
  finishedSession(): Promise<string>;
  /** A session whose log has a call that recorded a workspace commit, for `sessions.callDiff` (made once). */
  committedCall(): Promise<{ sessionId: string; atEvent: number }>;
  /** A session whose run was seeded with files, for `sessions.patch` (made once). */
  seededSession(): Promise<string>;
  /** The other team's run's main session. */
  foreignSession(): Promise<string>;
  /** The team's graph, one run of it and its edge (made once, by the admin). */
  ownGraph(): Promise<GraphFixture>;
  /** The other team's graph (made once, by its member). */
  foreignGraph(): Promise<GraphFixture>;
}

/**
 * Sets up an {@link AuthzWorld} for the file: call it at the top level, before the file's own hooks.
 * Its deps hold a key (so `secrets.create` can succeed for allowed callers), a workspace reader (so
 * `sessions.files` can) and webhooks to 127.0.0.1 (so `webhooks.create` can).
 */
export function authzWorld(): AuthzWorld {
  let database: TestDatabase | undefined;
  let live: TestLive | undefined;
  let deps: ApiDeps | undefined;
  let fx: TeamFixture | undefined;
  let agent: AgentFixture | undefined;
  let runId: string | undefined;
  let foreign: (AgentFixture & { runId: string }) | undefined;
  /** The workspace store's pool and the reader's cache. */
  let pool: PgPool | undefined;
  let cacheDir: string | undefined;
  let n = 0;

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`authzWorld: ${name} is not set up yet (read it inside a test or hook)`);
    return value;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    live = await createTestLive();
    pool = createPgPool(database.url, { max: 2 });
    cacheDir = await mkdtemp(join(tmpdir(), 'looplane-matrix-files-'));
    const workspaces = new WorkspaceReader({ store: new PostgresWorkspaceStore(pool), cacheDir });
    deps = {
      db: database.db,
      dispatch: live.dispatch,
      secretBox: new SecretBox(randomBytes(32).toString('base64')),
      workspaces,
      webhooks: { allowPrivate: true },
    };
    fx = await createTeamFixture(database.db);
    agent = await createAgentFixture(database.db, fx.teamId);
    runId = await world.startRun(fx.teamId, agent.agentId);
    const other = await createAgentFixture(database.db, fx.otherTeamId);
    foreign = { ...other, runId: await world.startRun(fx.otherTeamId, other.agentId, fx.outsider.id) };
  });
  afterAll(async () => {
    await live?.close();
    await pool?.end();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
    await database?.drop();
  });

  const beginSession = async () => beginSessionLog(world.db, await world.startRun(world.fx.teamId, world.agent.agentId));
  let started: Promise<string> | null = null;
  let committed: Promise<{ sessionId: string; atEvent: number }> | null = null;
  let seeded: Promise<string> | null = null;

  const world: AuthzWorld = {
    get db() {
      return ready(database, 'db').db;
    },
    get live() {
      return ready(live, 'live');
    },
    get deps() {
      return ready(deps, 'deps');
    },
    get fx() {
      return ready(fx, 'fx');
    },
    get agent() {
      return ready(agent, 'agent');
    },
    get runId() {
      return ready(runId, 'runId');
    },
    get foreign() {
      return ready(foreign, 'foreign');
    },
    next: () => n++,
    async startRun(teamId, agentId, userId = world.fx.members.admin.id) {
      const api = await callerAs(world.deps, { userId });
      return (await api.runs.create({ teamId, agentId, goal: 'fixture run' })).runId;
    },
    pendingApproval: (forRunId) => openApproval(world.db, forRunId, 1000 + n++),
    startedSession: () => (started ??= beginSession()),
    async finishedSession() {
      const sessionId = await beginSession();
      await finishSessionLog(world.db, sessionId);
      return sessionId;
    },
    committedCall: () => (committed ??= beginSession().then(async (sessionId) => ({ sessionId, atEvent: await appendCommittedCall(world.db, sessionId) }))),
    seededSession: () =>
      (seeded ??= beginSession().then(async (sessionId) => {
        await appendSeed(world.db, sessionId);
        return sessionId;
      })),
    async foreignSession() {
      return (await world.db.run.findUniqueOrThrow({ where: { id: world.foreign.runId }, select: { mainSessionId: true } })).mainSessionId!;
    },
    ownGraph: () => graphFixture(world.deps, world.fx.teamId, world.fx.members.admin.id, world.agent.agentId),
    foreignGraph: () => graphFixture(world.deps, world.fx.otherTeamId, world.fx.outsider.id, world.foreign.agentId),
  };
  return world;
}
