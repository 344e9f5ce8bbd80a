import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createModelForEndpoint } from '@looplane/models';
import { LOOPBACK_ALLOWED, startChatServer, type ChatServer, type ScriptedReply } from '@looplane/models/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testToolSpecs } from '../testing/test-tools';

/**
 * A model's output is recorded whatever it holds. NUL and unpaired surrogates (which Postgres
 * cannot store) once made every append of the answer fail: the job retried the paid call forever
 * and the ledger showed nothing. Real worker, real OpenAI adapter against a Chat Completions
 * server, real Postgres.
 */
// The Chat Completions server listens on loopback, which the worker reaches only when allowed to.
const s = setUpRuntimeSuite('unstorable', { createModel: (endpoint) => createModelForEndpoint(endpoint, 'sk-test', LOOPBACK_ALLOWED) });
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const usage = { prompt_tokens: 100, completion_tokens: 20 };
const FFFD = '\uFFFD';

let server: ChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A run of an agent whose OpenAI-compatible endpoint answers `replies` (1 µ$ a token). */
async function runAgainst(replies: ScriptedReply[]) {
  server = await startChatServer(replies);
  const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000 });
  await s.t.db.modelEndpoint.update({ where: { id: agent.endpointId }, data: { kind: 'openai', baseUrl: server.baseURL, maxRetries: 0 } });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.client.enqueue({ ...run, reason: 'start' });
  return run;
}

const eventsOf = (runId: string) => s.t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });
const ledgerOf = (runId: string) => s.t.db.budgetLedger.findFirstOrThrow({ where: { runId, scope: 'run' } });

describe('model output the database cannot store', () => {
  it('records NUL and unpaired surrogates in text and tool arguments as U+FFFD, marked, and the run goes on', async () => {
    const run = await runAgainst([
      {
        // Both kinds of lone half, a NUL, and a valid pair (kept) that the stream cuts in two.
        text: 'say \u0000 then \uD800 and \uDC00 and 🙂 end',
        toolCalls: [{ name: 'echo', arguments: '{"text":"a\\u0000b\\ud800c","k\\u0000ey":1}' }],
        usage,
      },
      { text: 'final \u0000 answer', usage },
    ]);
    const done = await waitForRun(s.t.db, run.runId);
    expect(done).toMatchObject({ status: 'succeeded', result: `final ${FFFD} answer` });
    expect(server!.requests).toHaveLength(2);

    const events = await eventsOf(run.runId);
    const payload = (type: string, n = 0) => events.filter((e) => e.type === type)[n]!.payload as Record<string, unknown>;
    expect(payload('model.responded')).toMatchObject({ text: `say ${FFFD} then ${FFFD} and ${FFFD} and 🙂 end`, sanitized: true });
    expect(payload('tool.requested')).toMatchObject({ name: 'echo', args: { text: `a${FFFD}b${FFFD}c`, [`k${FFFD}ey`]: 1 }, sanitized: true });
    expect(payload('tool.finished')).toMatchObject({ ok: true, output: `a${FFFD}b${FFFD}c` });
    expect(payload('model.responded', 1)).toMatchObject({ text: `final ${FFFD} answer`, sanitized: true });
    // The streamed deltas add up to the recorded answer; only a delta that changed is marked.
    const deltas = events.filter((e) => e.type === 'model.delta' && (e.payload as { requestId: string }).requestId === payload('model.responded').requestId);
    expect(deltas.map((e) => (e.payload as { text: string }).text).join('')).toBe(payload('model.responded').text);
    expect(deltas.some((e) => (e.payload as { sanitized?: boolean }).sanitized === true)).toBe(true);

    // Both calls are charged: 2 × (100 + 20) tokens at 1 µ$ each.
    expect(await ledgerOf(run.runId)).toMatchObject({ spentTokens: 240n, spentCostMicros: 240n, reservedTokens: 0n });
    expect(done.spentTokens).toBe(240n);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('charges a failed call for the usage it reported, and fails the run with the reason', async () => {
    // A tool call without a name: an answer the engine cannot use, but one the provider billed.
    const run = await runAgainst([{ text: 'thinking', toolCalls: [{ name: '', arguments: '{}' }], usage }]);
    const done = await waitForRun(s.t.db, run.runId);
    expect(done).toMatchObject({ status: 'failed', error: 'model call failed: the provider streamed a tool call without a name' });
    expect(server!.requests).toHaveLength(1);
    const failed = (await eventsOf(run.runId)).find((e) => e.type === 'model.failed')!;
    expect(failed.payload).toMatchObject({ usage: { inputTokens: 100, outputTokens: 20, estimated: false }, costMicros: 120 });
    expect(await ledgerOf(run.runId)).toMatchObject({ spentTokens: 120n, spentCostMicros: 120n, reservedTokens: 0n });
  });

  it('fails the run with the reason at the first answer Postgres refuses, and charges that call', { timeout: 40_000 }, async () => {
    // A value this database refuses (a stricter encoding or a constraint elsewhere): however often
    // the call is retried, the append fails the same way.
    await s.worker.pool.query(`
      CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.type = 'model.responded' AND NEW.payload->>'text' LIKE '%poison%' THEN
          RAISE EXCEPTION 'character not representable' USING ERRCODE = '22P05';
        END IF;
        RETURN NEW;
      END $$;
      CREATE OR REPLACE TRIGGER refuse_poison BEFORE INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION refuse_poison();`);
    try {
      const run = await runAgainst([{ text: 'poison', usage }]);
      const done = await waitForRun(s.t.db, run.runId, undefined, 35_000);
      expect(done).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^the worker cannot continue this run: .*22P05.*character not representable/),
      });
      // A retry would be refused the same way and paid for again: the one call is the last.
      expect(server!.requests).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(server!.requests).toHaveLength(1);
      // Its usage is charged (the refused answer's ledger change), its reservation released.
      expect(await ledgerOf(run.runId)).toMatchObject({ spentTokens: 120n, spentCostMicros: 120n, reservedTokens: 0n });
      expect(done.spentTokens).toBe(120n);
      // The log ends with the failure in place of the refused answer.
      const last = (await eventsOf(run.runId)).at(-1)!;
      expect(last).toMatchObject({ type: 'run.finished', payload: { status: 'failed', error: done.error } });
      expect(await logProblems(s.t.db, run.runId)).toEqual([]);
    } finally {
      await s.worker.pool.query('DROP TRIGGER IF EXISTS refuse_poison ON "Event"');
    }
  });
});
