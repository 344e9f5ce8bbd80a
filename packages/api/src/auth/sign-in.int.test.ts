import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createTeamFixture, createUser, TEST_PASSWORD, type TeamFixture } from '../testing/fixtures';
import { testRedisUrl } from '../testing/live';
import { signInWithPassword } from './sign-in';
import { SignInLimiter, type SignInLimits } from './sign-in-limiter';

let db: TestDatabase;
let redis: Redis;
let fx: TeamFixture;
const prefix = `looplane-test-signin-${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  fx = await createTeamFixture(db.db);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await db?.drop();
});

const limits: SignInLimits = { accountFailures: 5, addressFailures: 12, lockoutMs: 600, maxLockoutMs: 2400, windowMs: 60_000 };
let n = 0;
/** A limiter on keys of its own, so tests never share counters. */
const limiter = (overrides: Partial<SignInLimits> = {}) => new SignInLimiter(redis, { ...limits, ...overrides }, `${prefix}:${n++}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sign-in rate limit and lockout', () => {
  it('locks an account after its threshold: 200 wrong passwords check only 5, and the right one is refused during the lockout', async () => {
    // A lockout longer than the 200 attempts take on a loaded machine (refused ones are a Redis
    // round trip each): were it to end mid-loop, the attempts after it would be checked and lock
    // the account again for longer, and the right password below would still be refused.
    const deps = { db: db.db, limiter: limiter({ lockoutMs: 5000, maxLockoutMs: 5000 }) };
    const email = fx.members.operator.email;
    const outcomes = [];
    for (let i = 0; i < 200; i++) outcomes.push(await signInWithPassword(deps, { email, password: `wrong-${i}`, ip: '198.51.100.7' }));
    expect(outcomes.slice(0, 4).map((o) => o.kind)).toEqual(Array(4).fill('wrong-credentials'));
    // The fifth failure starts the lockout and says so.
    expect(outcomes[4]).toEqual({ kind: 'locked-out', retryAfterSeconds: 5 });
    expect(outcomes.slice(5).every((o) => o.kind === 'locked-out')).toBe(true);
    // Only the five admitted attempts counted: the refused ones never reached the password check.
    const fails = await redis.keys(`${prefix}:*:account:*:fails`);
    expect(await Promise.all(fails.map((key) => redis.get(key)))).toEqual(['5']);
    expect(await signInWithPassword(deps, { email, password: TEST_PASSWORD, ip: '198.51.100.7' })).toMatchObject({ kind: 'locked-out' });
    // Also from another address: the account itself is locked.
    const refused = await signInWithPassword(deps, { email: email.toUpperCase(), password: TEST_PASSWORD, ip: '203.0.113.9' });
    expect(refused).toMatchObject({ kind: 'locked-out' });
    // Nothing recorded a login while locked.
    expect((await db.db.user.findUniqueOrThrow({ where: { id: fx.members.operator.id } })).lastLoginAt).toBeNull();

    // Once the lockout it names is over, the right password signs in.
    await sleep((refused as { retryAfterSeconds: number }).retryAfterSeconds * 1000 + 50);
    const signedIn = await signInWithPassword(deps, { email, password: TEST_PASSWORD, ip: '198.51.100.7' });
    expect(signedIn).toMatchObject({ kind: 'signed-in', user: { id: fx.members.operator.id, sessionVersion: 0 } });
  });

  it('backs off exponentially: each failure past the threshold doubles the lockout, up to the cap', async () => {
    const limited = limiter({ accountFailures: 2, lockoutMs: 300, maxLockoutMs: 1200 });
    // An attempt never marked succeeded counts as failed.
    const fail = () => limited.begin({ email: 'backoff@example.test', ip: null });
    expect(await fail()).toMatchObject({ admitted: true, lockMsIfFails: 0 });
    const lockouts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const attempt = await fail();
      if (!attempt.admitted) throw new Error(`attempt ${i} came during a lockout`);
      lockouts.push(attempt.lockMsIfFails);
      const during = await fail();
      if (during.admitted) throw new Error(`attempt ${i} left no lockout`);
      expect(during.retryAfterMs).toBeGreaterThan(attempt.lockMsIfFails - 100);
      await sleep(during.retryAfterMs + 30);
    }
    expect(lockouts).toEqual([300, 600, 1200, 1200, 1200]);
  });

  it('concurrent attempts cannot slip past the threshold before the failures are recorded', async () => {
    const deps = { db: db.db, limiter: limiter() };
    const email = fx.members.approver.email;
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => signInWithPassword(deps, { email, password: `burst-${i}`, ip: '198.51.100.8' })));
    const checked = outcomes.filter((o) => o.kind === 'wrong-credentials').length;
    // Four plain failures; the fifth is the one that locks (its lock is set before its password is checked).
    expect(checked).toBeLessThanOrEqual(4);
    expect(outcomes.filter((o) => o.kind === 'locked-out').length).toBeGreaterThanOrEqual(56);
  });

  it('limits an address across accounts; other addresses and a success elsewhere are unaffected', async () => {
    const deps = { db: db.db, limiter: limiter() };
    const ip = '2001:db8:1:2:aaaa::1';
    for (let i = 0; i < 11; i++) {
      expect((await signInWithPassword(deps, { email: `nobody-${i}@example.test`, password: 'guess-guess', ip })).kind).toBe('wrong-credentials');
    }
    // The twelfth failure from the same /64 (another address in it) locks the address.
    expect((await signInWithPassword(deps, { email: 'nobody-x@example.test', password: 'guess-guess', ip: '2001:db8:1:2:ffff::9' })).kind).toBe('locked-out');
    const user = await createUser(db.db, 'addr');
    expect((await signInWithPassword(deps, { email: user.email, password: TEST_PASSWORD, ip })).kind).toBe('locked-out');
    expect((await signInWithPassword(deps, { email: user.email, password: TEST_PASSWORD, ip: '2001:db8:1:3::1' })).kind).toBe('signed-in');
  });

  it('a right password forgets the account’s failures but not the address’s', async () => {
    const deps = { db: db.db, limiter: limiter({ addressFailures: 9 }) };
    const user = await createUser(db.db, 'forgiven');
    const ip = '192.0.2.44';
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await signInWithPassword(deps, { email: user.email, password: 'wrong-wrong', ip })).kind).toBe('wrong-credentials');
      expect((await signInWithPassword(deps, { email: user.email, password: TEST_PASSWORD, ip })).kind).toBe('signed-in');
    }
    // The account never locked (4 failures at most between successes), but the address holds all 8:
    // the next failure of any account there reaches its threshold of 9.
    expect((await signInWithPassword(deps, { email: 'someone@example.test', password: 'wrong-wrong', ip })).kind).toBe('locked-out');
  });

  it('a lockout leaves one audit row in each team of the account, with the address; repeats within it leave none', async () => {
    const lockouts: unknown[] = [];
    const deps = { db: db.db, limiter: limiter(), onLockout: (info: unknown) => lockouts.push(info) };
    const user = fx.members.admin;
    await db.db.membership.create({ data: { teamId: fx.otherTeamId, userId: user.id, role: 'viewer' } });
    for (let i = 0; i < 9; i++) await signInWithPassword(deps, { email: user.email, password: `wrong-${i}`, ip: '198.51.100.99' });
    const rows = await db.db.auditLog.findMany({ where: { action: 'auth.locked_out', targetId: user.id }, orderBy: { teamId: 'asc' } });
    expect(rows.map((r) => r.teamId).sort()).toEqual([fx.teamId, fx.otherTeamId].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ actorType: 'system', actorId: 'sign-in', ip: '198.51.100.99', targetType: 'user' });
      expect(row.data).toEqual({ scopes: ['account'], failures: { account: 5, address: 5 }, lockedForSeconds: 1 });
    }
    expect(lockouts).toEqual([{ email: user.email, ip: '198.51.100.99', scopes: ['account'], auditedTeams: 2 }]);
  });

  it('an email that is no account is limited the same way, and its lockout is reported but audits nothing', async () => {
    const lockouts: unknown[] = [];
    const deps = { db: db.db, limiter: limiter(), onLockout: (info: unknown) => lockouts.push(info) };
    const before = await db.db.auditLog.count();
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push((await signInWithPassword(deps, { email: 'ghost@example.test', password: 'guess-guess', ip: null })).kind);
    expect(outcomes).toEqual(['wrong-credentials', 'wrong-credentials', 'wrong-credentials', 'wrong-credentials', 'locked-out', 'locked-out']);
    expect(await db.db.auditLog.count()).toBe(before);
    expect(lockouts).toEqual([{ email: 'ghost@example.test', ip: null, scopes: ['account'], auditedTeams: 0 }]);
  });
});
