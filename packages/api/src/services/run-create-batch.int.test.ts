import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { chainHash, GENESIS_HASH, type AuditRowContent } from '@looplane/db';
import type { TeamActivity } from '@looplane/queue';
import type { ApiDeps } from '../context';
import { callerAs, createAgentFixture, createTeamFixture, issueToken, type AgentFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';
import { RunCreateBatcher } from './run-create-batch';
import { prepareRun } from './run-create';
import { DEFAULT_RUN_START_LIMITS } from './run-start-limits';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let agent: AgentFixture;

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

/** The team's audit rows, checked to be one gap-free chain whose hashes verify. */
async function verifiedAudit(teamId: string) {
  const rows = await db.db.auditLog.findMany({ where: { teamId }, orderBy: { seq: 'asc' } });
  let prev = GENESIS_HASH;
  rows.forEach((row, i) => {
    const content: AuditRowContent = {
      teamId: row.teamId,
      seq: row.seq,
      actorType: row.actorType,
      actorId: row.actorId,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      data: row.data,
      ip: row.ip,
      createdAt: row.createdAt.toISOString(),
    };
    expect(row.seq).toBe(i + 1);
    expect(row.prevHash).toBe(prev);
    expect(row.hash).toBe(chainHash(prev, content));
    prev = row.hash;
  });
  return rows;
}

/** Every run of the list has its root session and run ledger, and exactly one start job. */
async function expectComplete(runIds: string[]) {
  const runs = await db.db.run.findMany({ where: { id: { in: runIds } }, include: { sessions: true, ledgers: true } });
  expect(runs).toHaveLength(runIds.length);
  const jobs = await live.jobs();
  for (const run of runs) {
    expect(run.sessions.map((s) => s.id)).toEqual([run.mainSessionId]);
    expect(run.ledgers.map((l) => l.scope)).toEqual(['run']);
    expect(jobs.filter((job) => job.runId === run.id)).toEqual([{ runId: run.id, sessionId: run.mainSessionId, reason: 'start' }]);
  }
}

describe('runs.create under concurrency (group commit)', () => {
  it('N concurrent creates: N runs, N audit rows in one valid chain, N jobs, N team notices', async () => {
    const heard: TeamActivity[] = [];
    const stop = await live.bus.onTeamActivity(fx.teamId, (message) => heard.push(message));
    const before = (await verifiedAudit(fx.teamId)).length;
    const token = await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator');
    const asUser = await callerAs(deps, { userId: fx.members.operator.id });
    const asToken = await callerAs(deps, { bearer: token.secret });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? asUser : asToken).runs.create({
          teamId: fx.teamId,
          agentId: agent.agentId,
          goal: i % 5 === 0 ? `/triage report ${i}` : `goal ${i}`,
          budget: { toolCalls: i + 1, onExceed: 'fail' },
        }),
      ),
    );
    const runIds = results.map((r) => r.runId);
    expect(new Set(runIds).size).toBe(40);
    await expectComplete(runIds);

    const audit = (await verifiedAudit(fx.teamId)).slice(before);
    expect(audit.map((a) => a.targetId).sort()).toEqual([...runIds].sort());
    expect(audit.every((a) => a.action === 'run.created')).toBe(true);
    const byRun = new Map(audit.map((a) => [a.targetId, a]));
    expect(byRun.get(runIds[1]!)).toMatchObject({
      actorType: 'token',
      actorId: token.id,
      data: expect.objectContaining({ onBehalfOf: fx.members.operator.id }),
    });
    const triage = await db.db.run.findUniqueOrThrow({ where: { id: runIds[5]! }, include: { ledgers: true } });
    expect(triage.goal).toBe('Triage this report: report 5');
    expect(triage.ledgers[0]!.limitCalls).toBe(6);
    await expect.poll(() => heard.length, { timeout: 5000 }).toBe(40);
    expect(heard.map((m) => (m.kind === 'run.status' ? m.runId : null)).sort()).toEqual([...runIds].sort());
    await stop();
    expect(live.errors).toEqual([]);
  });

  it('an invalid create among concurrent ones fails alone', async () => {
    const other = await createTeamFixture(db.db);
    const foreign = await createAgentFixture(db.db, other.teamId);
    const archived = await createAgentFixture(db.db, fx.teamId, { archivedAt: new Date() });
    const api = await callerAs(deps, { userId: fx.members.operator.id });
    const goals = Array.from({ length: 12 }, (_, i) => ({ agentId: agent.agentId, goal: `ok ${i}` }));
    goals[3] = { agentId: foreign.agentId, goal: 'other team' };
    goals[7] = { agentId: agent.agentId, goal: '/deploy now' };
    goals[9] = { agentId: archived.agentId, goal: 'archived' };
    const before = await db.db.run.count({ where: { teamId: fx.teamId } });
    const settled = await Promise.allSettled(goals.map((g) => api.runs.create({ teamId: fx.teamId, ...g })));

    expect(settled.map((s) => s.status)).toEqual(goals.map((_, i) => ([3, 7, 9].includes(i) ? 'rejected' : 'fulfilled')));
    expect(settled[3]).toMatchObject({ reason: { code: 'NOT_FOUND' } });
    expect(settled[7]).toMatchObject({ reason: { code: 'BAD_REQUEST' } });
    expect(settled[9]).toMatchObject({ reason: { code: 'NOT_FOUND' } });
    const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.runId] : []));
    await expectComplete(ok);
    expect(await db.db.run.count({ where: { teamId: fx.teamId } })).toBe(before + 9);
    await verifiedAudit(fx.teamId);
  });

  it('a batch that fails in the database is retried create by create: only the bad one fails', async () => {
    const actor = { type: 'user', userId: fx.members.operator.id } as const;
    const input = (goal: string) => ({ teamId: fx.teamId, agentId: agent.agentId, goal });
    const existing = await (await callerAs(deps, { userId: fx.members.operator.id })).runs.create(input('already there'));
    const prepared = await Promise.all(Array.from({ length: 6 }, (_, i) => prepareRun(db.db, actor, fx.teamId, input(`batch ${i}`), null)));
    // A run id that already exists: valid input, refused by the primary key inside the batch.
    prepared[4] = { ...prepared[4]!, runId: existing.runId };
    const auditBefore = await db.db.auditLog.count({ where: { teamId: fx.teamId } });
    // Submitted in one turn of the event loop, so the six share one transaction, which the bad one fails.
    const batcher = new RunCreateBatcher(db.db, { parallel: 1 });
    const settled = await Promise.allSettled(prepared.map((run) => batcher.submit(run, deps.dispatch, DEFAULT_RUN_START_LIMITS)));

    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    await expectComplete(prepared.filter((_, i) => i !== 4).map((p) => p.runId));
    expect(await db.db.session.count({ where: { id: prepared[4]!.sessionId } })).toBe(0);
    const audit = await verifiedAudit(fx.teamId);
    expect(audit.length).toBe(auditBefore + 5);
    expect(audit.filter((a) => a.targetId === existing.runId)).toHaveLength(1);
  });
});
