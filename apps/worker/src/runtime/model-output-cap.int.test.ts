import { createTeamFixture, issueToken, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import { DELTA_LOG_MAX_CHARS, MODEL_OUTPUT_MAX_BYTES } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { LOOPBACK_ALLOWED, startChatServer, type ChatServer } from '@looplane/models/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { serveApiFor, type WorkerApi } from '../testing/served-api';

/**
 * A model that answers 10 MB once had its answer stored three times (every delta, the answer, the
 * run's result) and `runs.events` sent 31 MB. Real worker, real OpenAI adapter against a Chat
 * Completions server on 127.0.0.1 that ignores `max_tokens`, real Postgres, `runs.events` over
 * HTTP: the request asks for the endpoint's `maxOutputTokens`, the adapter stops reading at the
 * byte cap, and the log keeps the answer once.
 */
// The Chat Completions server listens on loopback, which the worker reaches only when allowed to.
const s = setUpRuntimeSuite('output-cap', { createModel: (endpoint) => createModelForEndpoint(endpoint, 'sk-test', LOOPBACK_ALLOWED) });
const MiB = 1024 * 1024;
const TEN_MB = 10 * 1000 * 1000;

let fx: TeamFixture;
let api: WorkerApi;
let viewer: string;
let server: ChatServer;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  const document = { version: 1, name: 'allow all', default: 'allow' };
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'default', activeVersion: 1, versions: { create: { version: 1, document } } } });
  viewer = (await issueToken(s.t.db, fx.teamId, fx.members.viewer.id, 'viewer')).secret;
  api = await serveApiFor(s.t.db, s);
  server = await startChatServer([{ text: 'x'.repeat(TEN_MB), chunkChars: 64 * 1024, usage: { prompt_tokens: 50, completion_tokens: 2_500_000 } }]);
});
afterAll(async () => {
  await server?.close();
  await api?.served.close();
});

/** Every page of `runs.events` over HTTP, and the bytes of the answers. */
async function allEvents(runId: string) {
  let after = 0;
  let bytes = 0;
  const events: Array<{ type: string; payload: Record<string, unknown> }> = [];
  for (;;) {
    const answer = await api.call('runs.events', viewer, { teamId: fx.teamId, runId, after, limit: 1000 }, 'query');
    expect(answer.status, JSON.stringify(answer.error)).toBe(200);
    bytes += JSON.stringify(answer.data).length;
    const page = answer.data as { events: typeof events; nextAfter: number; hasMore: boolean };
    events.push(...page.events);
    if (!page.hasMore) return { events, bytes };
    after = page.nextAfter;
  }
}

describe('model output is capped and stored once', () => {
  it('a 10 MB answer: max_tokens is the endpoint’s, reading stops at 1 MiB, the run finishes with the cut answer and a note, stored once', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { maxOutputTokens: 2048 });
    await s.t.db.modelEndpoint.update({ where: { id: agent.endpointId }, data: { kind: 'openai', baseUrl: server.baseURL, maxRetries: 0 } });
    const run = await createTestRun(s.t.db, agent);
    await s.client.enqueue({ ...run, reason: 'start' });
    const done = await waitForRun(s.t.db, run.runId, undefined, 60_000);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, max_tokens: 2048 });
    await expect.poll(() => server.requests[0]!.closedEarly).toBe(true);

    const note = `\n\n[answer truncated: the model's answer passed ${MODEL_OUTPUT_MAX_BYTES} bytes, the most one answer may hold; the rest was not read]`;
    expect(done.status).toBe('succeeded');
    expect(done.result).toBe(`${'x'.repeat(MODEL_OUTPUT_MAX_BYTES)}${note}`);

    // In the database: the answer once, a preview of it as deltas, and a result that names the answer.
    const [stored] = await s.t.db.$queryRaw<
      Array<{ bytes: bigint }>
    >`SELECT sum(octet_length(payload::text))::bigint AS bytes FROM "Event" WHERE "runId" = ${run.runId}`;
    expect(Number(stored!.bytes)).toBeLessThan(MODEL_OUTPUT_MAX_BYTES + DELTA_LOG_MAX_CHARS + 64 * 1024);
    expect(Number(stored!.bytes)).toBeLessThan(1.2 * MiB);

    const { events, bytes } = await allEvents(run.runId);
    expect(bytes).toBeLessThan(1.2 * MiB);
    const responded = events.filter((e) => e.type === 'model.responded');
    expect(responded).toHaveLength(1);
    expect(responded[0]!.payload).toMatchObject({ finishReason: 'length', truncated: true, text: done.result });
    const deltas = events.filter((e) => e.type === 'model.delta').map((e) => e.payload.text as string);
    expect(deltas.join('')).toBe('x'.repeat(DELTA_LOG_MAX_CHARS));
    const finished = events.find((e) => e.type === 'run.finished');
    expect(finished?.payload).toEqual({ status: 'succeeded', resultSeq: expect.any(Number) });
    expect(finished?.payload).not.toHaveProperty('result');
  }, 90_000);
});
