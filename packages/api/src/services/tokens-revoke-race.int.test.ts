import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createDb, lockAuditChains, type Db } from '@looplane/db';
import type { ApiDeps } from '../context';
import { callerAs, createTeamFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

/**
 * Tokens made with a token while that token is being revoked (issue #33: 92 made during a
 * revocation, 48 of them kept working). The race is made certain rather than hoped for: the team's
 * audit chain is held, so every creator stops after its checks and its insert, just before its
 * audit row, with its transaction open; the revocation is then asked for and gets as far as it
 * can. Only when all of them wait on a lock is the chain let go.
 */

const CHILD_CREATORS = 16;
const GRANDCHILD_CREATORS = 6;
const LATE_CREATORS = 8;

let testDb: TestDatabase;
let db: Db;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // Every creator holds a connection while it waits; the test database's own pool has five.
  db = createDb(testDb.url, { poolSize: CHILD_CREATORS + GRANDCHILD_CREATORS + LATE_CREATORS + 8 });
  live = await createTestLive();
  deps = { db, dispatch: live.dispatch };
  fx = await createTeamFixture(db);
});
afterAll(async () => {
  await live?.close();
  await db?.$disconnect();
  await testDb?.drop();
});

/** Backends of this database waiting for a lock (row or advisory). */
async function lockWaiters(): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return rows[0]!.n;
}

async function untilLockWaiters(n: number): Promise<void> {
  await vi.waitFor(async () => expect(await lockWaiters()).toBe(n), { timeout: 30_000, interval: 20 });
}

/** Holds the team's audit-chain lock until `release` is called. */
function holdAuditChain(teamId: string): { held: Promise<void>; release: () => void; done: Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const done = db.$transaction(
    async (tx) => {
      await lockAuditChains(tx, [teamId]);
      markHeld();
      await released;
    },
    { timeout: 60_000 },
  );
  return { held, release, done };
}

/**
 * Marks a token used just now, so authenticating with it writes no `lastUsedAt` (that write is
 * made off the request path and would be one more lock waiter than the race has).
 */
async function markUsed(tokenId: string): Promise<void> {
  await db.apiToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date() } });
}

async function authenticates(secret: string): Promise<boolean> {
  const api = await callerAs(deps, { bearer: secret });
  return api.tokens.list({ teamId: fx.teamId }).then(
    () => true,
    (error: unknown) => {
      expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
      return false;
    },
  );
}

interface Race {
  /** Creators using the token being revoked, and using a token it made earlier. */
  viaParent: number;
  viaChild: number;
  /** Creators using the revoked token that set off once the revocation is under way. */
  late: number;
}

/**
 * Revokes a token while tokens are being made with it and with its child, and returns what was
 * made. Every creator but the late ones is held just before its audit row when the revocation is
 * asked for; the revocation then goes as far as it can before the chain is let go.
 */
async function race(counts: Race) {
  const admin = await callerAs(deps, { userId: fx.members.admin.id });
  const parent = await admin.tokens.create({ teamId: fx.teamId, name: 'parent', role: 'operator' });
  await markUsed(parent.id);
  const child = await (await callerAs(deps, { bearer: parent.token })).tokens.create({ teamId: fx.teamId, name: 'child', role: 'operator' });
  await markUsed(child.id);
  // Authenticated now, as requests already past authentication when the revocation comes.
  const viaParent = await Promise.all(Array.from({ length: counts.viaParent + counts.late }, () => callerAs(deps, { bearer: parent.token })));
  const viaChild = await Promise.all(Array.from({ length: counts.viaChild }, () => callerAs(deps, { bearer: child.token })));

  const chain = holdAuditChain(fx.teamId);
  await chain.held;
  const create = (api: (typeof viaParent)[number], i: number) =>
    api.tokens.create({ teamId: fx.teamId, name: `racer-${i}`, role: 'viewer' }).then(
      (made) => made,
      (error: unknown) => {
        // Too late: the parent was revoked first. Nothing else may go wrong.
        expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: 'The token making this request was revoked' });
        return null;
      },
    );
  const early = [...viaParent.slice(0, counts.viaParent), ...viaChild].map(create);
  await untilLockWaiters(counts.viaParent + counts.viaChild);
  const revoked = admin.tokens.revoke({ teamId: fx.teamId, tokenId: parent.id });
  await untilLockWaiters(counts.viaParent + counts.viaChild + 1);
  chain.release();
  const late = viaParent.slice(counts.viaParent).map(create);
  await chain.done;
  await revoked;
  const made = (await Promise.all([...early, ...late])).filter((token) => token !== null);
  // The creators that were waiting before the revocation all got their token.
  expect(made.length).toBeGreaterThanOrEqual(counts.viaParent + counts.viaChild);
  return { parent, child, made };
}

describe('token creation racing the revocation of its parent', () => {
  it.each([
    { what: 'children and grandchildren', viaParent: CHILD_CREATORS, viaChild: GRANDCHILD_CREATORS, late: LATE_CREATORS },
    // Nobody holds the revoked token itself: only the walk down its tree meets the creators.
    { what: 'grandchildren alone', viaParent: 0, viaChild: GRANDCHILD_CREATORS, late: 0 },
  ])('$what: every token made stops working and is named in the audit row', async (counts) => {
    const { parent, child, made } = await race(counts);
    for (const token of [parent, child, ...made]) expect(await authenticates(token.token), token.id).toBe(false);
    const audit = await db.auditLog.findFirstOrThrow({ where: { teamId: fx.teamId, action: 'token.revoked', targetId: parent.id } });
    expect(((audit.data as { alsoRevoked?: string[] }).alsoRevoked ?? []).sort()).toEqual([child.id, ...made.map((token) => token.id)].sort());
  });
});
