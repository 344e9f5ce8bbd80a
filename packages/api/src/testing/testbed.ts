// Vitest-only: registers hooks, so it stays out of `./index.ts`, which the benchmarks import
// without vitest. Tests import it by relative path.
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '@looplane/db';
import type { Role } from '@looplane/shared';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { ApiDeps } from '../context';
import { callerAs, createAgentFixture, createTeamFixture, type AgentFixture, type TeamFixture } from './fixtures';
import { createTestLive, type TestLive } from './live';

export interface ApiTestbedOptions {
  /** Also create an agent on a faux endpoint in the team ({@link createAgentFixture}). */
  agent?: boolean;
  /** Dependencies beyond `db` and `dispatch` (a SecretBox, workspaces) that every caller gets. */
  deps?: Omit<ApiDeps, 'db' | 'dispatch'>;
}

type TestCaller = Awaited<ReturnType<typeof callerAs>>;

export interface ApiTestbed {
  /** The Prisma client of this file's own throwaway database. */
  readonly db: Db;
  /** That database's connection URL (for a raw pool: the workspace store, the runtime's SQL). */
  readonly url: string;
  readonly live: TestLive;
  readonly deps: ApiDeps;
  readonly fx: TeamFixture;
  /** A caller signed in as the team's member with `role`; `deps` overrides the testbed's. */
  as(role: Role, deps?: ApiDeps): Promise<TestCaller>;
  /** A caller signed in as any user (the outsider, a user made in the test). */
  asUser(userId: string, deps?: ApiDeps): Promise<TestCaller>;
}

export interface ApiTestbedWithAgent extends ApiTestbed {
  readonly agent: AgentFixture;
}

/**
 * The usual integration-test setup, one per file: in `beforeAll` a fresh database, a live bus and
 * queue on the test Redis, `deps`, a team fixture (and an agent when asked); in `afterAll` both
 * closed. Call it at the top level of the test file, before any `beforeAll` of the file's own:
 * vitest runs `beforeAll` hooks in order and `afterAll` hooks in reverse, so the file's extra
 * setup sees everything here and its teardown runs before the database goes away.
 */
export function apiTestbed(options: ApiTestbedOptions & { agent: true }): ApiTestbedWithAgent;
export function apiTestbed(options?: ApiTestbedOptions & { agent?: false }): ApiTestbed;
export function apiTestbed(options: ApiTestbedOptions = {}): ApiTestbedWithAgent {
  let database: TestDatabase | undefined;
  let live: TestLive | undefined;
  let deps: ApiDeps | undefined;
  let fx: TeamFixture | undefined;
  let agent: AgentFixture | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    live = await createTestLive();
    deps = { ...options.deps, db: database.db, dispatch: live.dispatch };
    fx = await createTeamFixture(database.db);
    if (options.agent) agent = await createAgentFixture(database.db, fx.teamId);
  });
  afterAll(async () => {
    await live?.close();
    await database?.drop();
  });

  // Everything exists only once `beforeAll` ran: reading it earlier (at collection time) is a
  // bug in the test, so say so instead of handing out undefined.
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`apiTestbed: ${name} is not set up yet (read it inside a test or hook)`);
    return value;
  };
  const testbed: ApiTestbedWithAgent = {
    get db() {
      return ready(database, 'db').db;
    },
    get url() {
      return ready(database, 'url').url;
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
      return ready(agent, options.agent ? 'agent' : 'agent (pass { agent: true })');
    },
    as: (role, override) => callerAs(override ?? testbed.deps, { userId: testbed.fx.members[role].id }),
    asUser: (userId, override) => callerAs(override ?? testbed.deps, { userId }),
  };
  return testbed;
}
