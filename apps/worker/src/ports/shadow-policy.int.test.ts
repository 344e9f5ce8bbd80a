import { verifyTeamAudit, type Prisma } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { evaluate, parsePolicyDocument } from '@looplane/policy';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testToolSpecs } from '../testing/test-tools';
import { PolicyAudit } from './policy-audit';
import { ShadowDisagreements, disagrees } from './shadow-disagreements';
import { TeamPolicies } from './team-policy';

// Shadow policy in the real worker runtime: every live call is decided under the shadow too, a
// disagreement (another outcome, or another rule) is recorded once, and nothing else changes.
const s = setUpRuntimeSuite('shadow-policy', { concurrency: 40 });

const ACTIVE = {
  version: 1,
  default: 'allow',
  rules: [
    { id: 'deny-d', match: { tool: 'echo', args: { text: 'd-*' } }, outcome: 'deny', reason: 'no d' },
    { id: 'allow-a', match: { tool: 'echo', args: { text: 'a-*' } }, outcome: 'allow' },
  ],
};
const SHADOW = {
  version: 1,
  default: 'allow',
  rules: [
    // another outcome
    { id: 'deny-a', match: { tool: 'echo', args: { text: 'a-*' } }, outcome: 'deny', reason: 'no a' },
    // the same outcome by another rule
    { id: 'deny-d-too', match: { tool: 'echo', args: { text: 'd-*' } }, outcome: 'deny', reason: 'no d either' },
    // the active default allows these; the shadow denies them
    { id: 'deny-sevens', match: { tool: 'echo', args: { text: 'n-*7' } }, outcome: 'deny', reason: 'no sevens' },
  ],
};

const RUNS = 20;
const TURNS = 5;
const CALLS_PER_TURN = 10;
const PREFIXES = ['a', 'd', 'n', 'n'];

/** Run `r`'s script: TURNS turns of CALLS_PER_TURN echo calls, each with its own text. */
function scriptOf(r: number): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  for (let t = 0; t < TURNS; t++) {
    turns.push({ calls: Array.from({ length: CALLS_PER_TURN }, (_, c) => ({ tool: 'echo', args: { text: `${PREFIXES[(r + t + c) % 4]}-${r}-${t}-${c}` } })) });
  }
  turns.push({ finish: 'done' });
  return turns;
}

/** Starts RUNS runs for a team and waits for all of them; returns their ids in order. */
async function runAll(teamId: string): Promise<Array<{ runId: string; sessionId: string }>> {
  const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    const agent = await createTestAgent(s.t.db, teamId, { script: scriptOf(r) });
    runs.push(await createTestRun(s.t.db, agent, { config }));
  }
  for (const ids of runs) await s.client.enqueue({ ...ids, reason: 'start' });
  for (const ids of runs) expect((await waitForRun(s.t.db, ids.runId, undefined, 90_000)).status).toBe('succeeded');
  return runs;
}

/** What happened to each call of a run: its decision and rule, and whether the tool then ran. */
async function outcomesOf(runId: string) {
  const events = await s.t.db.event.findMany({ where: { runId, type: { in: ['policy.decided', 'tool.finished'] } }, orderBy: { seq: 'asc' } });
  return events.map((e) => {
    const p = e.payload as Record<string, unknown>;
    return e.type === 'policy.decided' ? `${String(p.callId)} ${String(p.decision)} ${String(p.ruleId)}` : `${String(p.callId)} ran ${String(p.ok)}`;
  });
}

async function addShadow(teamId: string, document: Record<string, unknown>, shadowId: string) {
  const policy = await s.t.db.policy.findFirstOrThrow({ where: { teamId } });
  await s.t.db.policyVersion.create({ data: { policyId: policy.id, version: 2, document: document as Prisma.InputJsonValue } });
  await s.t.db.policy.update({ where: { id: policy.id }, data: { shadowVersion: 2, shadowId, shadowSetAt: new Date() } });
}

describe('shadow policy in the worker', () => {
  it('1,000 live calls: every disagreement recorded exactly once, and every outcome as without a shadow', { timeout: 180_000 }, async () => {
    const shadowed = await createTestTeam(s.t.db, { policy: ACTIVE });
    await addShadow(shadowed, SHADOW, 'shadow-a');
    const plain = await createTestTeam(s.t.db, { policy: ACTIVE });
    await s.client.follow(shadowed);

    const withShadow = await runAll(shadowed);
    const without = await runAll(plain);

    // Outcomes: the same run without a shadow decided and ran every call the same way.
    for (let r = 0; r < RUNS; r++) {
      const a = await outcomesOf(withShadow[r]!.runId);
      expect(a.filter((line) => / (allow|deny) /.test(line))).toHaveLength(TURNS * CALLS_PER_TURN);
      expect(a).toEqual(await outcomesOf(without[r]!.runId));
    }

    // A direct evaluation of both documents over every call the worker decided.
    const decided = await s.t.db.auditLog.findMany({ where: { teamId: shadowed, action: 'policy.decided' } });
    expect(decided).toHaveLength(RUNS * TURNS * CALLS_PER_TURN);
    const active = parsePolicyDocument(ACTIVE);
    const shadow = parsePolicyDocument(SHADOW);
    const expected = new Map<string, { active: ReturnType<typeof evaluate>; shadow: ReturnType<typeof evaluate>; runId: string; tool: string }>();
    for (const row of decided) {
      const data = row.data as { sessionId: string; callId: string; tool: string; args: Record<string, unknown>; outcome: string };
      const a = evaluate(active, { tool: data.tool, args: data.args });
      const b = evaluate(shadow, { tool: data.tool, args: data.args });
      expect(data.outcome).toBe(a.outcome);
      if (disagrees(a, b)) expect(expected.has(`${data.sessionId}:${data.callId}`)).toBe(false);
      if (disagrees(a, b)) expected.set(`${data.sessionId}:${data.callId}`, { active: a, shadow: b, runId: row.targetId!, tool: data.tool });
    }
    // Every kind of disagreement is exercised: another outcome, and the same outcome by another rule.
    const kinds = new Set([...expected.values()].map((e) => `${e.active.ruleId}>${e.shadow.ruleId}`));
    expect(kinds).toEqual(new Set(['allow-a>deny-a', 'deny-d>deny-d-too', 'default>deny-sevens']));

    const rows = await s.t.db.policyShadowDisagreement.findMany({ where: { teamId: shadowed } });
    expect(rows.map((r) => `${r.sessionId}:${r.callId}`).sort()).toEqual([...expected.keys()].sort());
    for (const row of rows) {
      const want = expected.get(`${row.sessionId}:${row.callId}`)!;
      expect([
        row.activeOutcome,
        row.activeRuleId,
        row.shadowOutcome,
        row.shadowRuleId,
        row.runId,
        row.tool,
        row.shadowId,
        row.activeVersion,
        row.shadowVersion,
      ]).toEqual([want.active.outcome, want.active.ruleId, want.shadow.outcome, want.shadow.ruleId, want.runId, want.tool, 'shadow-a', 1, 2]);
      // seq: the call's policy.decided event in its session.
      const event = await s.t.db.event.findFirstOrThrow({ where: { sessionId: row.sessionId, seq: row.seq! } });
      expect([event.type, (event.payload as { callId: string }).callId]).toEqual(['policy.decided', row.callId]);
    }
    const audited = await s.t.db.auditLog.findMany({ where: { teamId: shadowed, action: 'policy.shadow_disagreed' } });
    expect(audited).toHaveLength(expected.size);
    for (const row of audited) {
      const data = row.data as {
        sessionId: string;
        callId: string;
        seq: number;
        tool: string;
        active: { outcome: string; ruleId: string; version: number };
        shadow: { outcome: string; ruleId: string; version: number };
      };
      const want = expected.get(`${data.sessionId}:${data.callId}`)!;
      expect([
        data.active.outcome,
        data.active.ruleId,
        data.shadow.outcome,
        data.shadow.ruleId,
        data.active.version,
        data.shadow.version,
        data.tool,
        row.targetId,
      ]).toEqual([want.active.outcome, want.active.ruleId, want.shadow.outcome, want.shadow.ruleId, 1, 2, 'echo', want.runId]);
      expect(typeof data.seq).toBe('number');
    }
    // The chain stays sound with the shadow's rows between the group-committed decisions.
    expect(await verifyTeamAudit(s.t.db, shadowed)).toMatchObject({ ok: true });
    // Nothing was recorded for the team without a shadow; the live notices came, one per disagreement.
    expect(await s.t.db.policyShadowDisagreement.count({ where: { teamId: plain } })).toBe(0);
    await expect.poll(() => s.client.activity.filter((a) => a.kind === 'policy.shadow_disagreed').length, { timeout: 5000 }).toBe(expected.size);
  });

  it('a call decided again (a retried step) and at once twice is recorded once; an agreeing shadow records nothing', async () => {
    const teamId = await createTestTeam(s.t.db, { policy: ACTIVE });
    await addShadow(teamId, SHADOW, 'shadow-retry');
    const logger = pino({ level: 'silent' });
    const policies = new TeamPolicies({
      pool: s.worker.pool,
      audit: new PolicyAudit(s.worker.pool),
      logger,
      shadow: new ShadowDisagreements({ db: s.t.db, logger }),
    });
    const subject = { runId: 'run-retry', sessionId: 'ses-retry', teamId, agentId: null, nextSeq: () => 7 };
    const call = { callId: 'call-1', name: 'echo', args: { text: 'a-1' } };
    // A worker that decided it and died, the next that decides it again, and two at once.
    const first = await policies.portFor(subject).evaluate(call);
    const again = await policies.portFor(subject).evaluate(call);
    await Promise.all([policies.portFor(subject).evaluate(call), policies.portFor(subject).evaluate(call)]);
    expect(first).toEqual(again);
    expect(first).toMatchObject({ decision: 'allow', ruleId: 'allow-a' });
    expect(await s.t.db.policyShadowDisagreement.count({ where: { teamId } })).toBe(1);
    expect(await s.t.db.auditLog.count({ where: { teamId, action: 'policy.shadow_disagreed' } })).toBe(1);
    // An approver's edit is a new call (other arguments): decided and compared again.
    await policies.portFor(subject).evaluate({ ...call, args: { text: 'a-2' } });
    expect(await s.t.db.policyShadowDisagreement.count({ where: { teamId } })).toBe(2);
    // Agreeing calls record nothing.
    await policies.portFor(subject).evaluate({ callId: 'call-2', name: 'echo', args: { text: 'n-1' } });
    expect(await s.t.db.policyShadowDisagreement.count({ where: { teamId } })).toBe(2);
    expect(await verifyTeamAudit(s.t.db, teamId)).toMatchObject({ ok: true });
  });
});
