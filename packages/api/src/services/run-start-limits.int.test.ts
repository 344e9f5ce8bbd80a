import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db, type Prisma } from '@looplane/db';
import type { ApiDeps } from '../context';
import { graphDefinitionFor } from '../routers/graphs.fixtures';
import { appendEvents, callerAs, createAgentFixture, createTeamFixture, issueToken } from '../testing/fixtures';
import { serveApi, type ServedApi } from '../testing/node-server';
import { apiTestbed } from '../testing/testbed';
import type { RunStartLimits } from './run-start-limits';

/**
 * The per-team limits on starting work, over HTTP: runs per rolling minute (every way a run,
 * fork or resume starts) and queued runs. A refused call answers 429 TOO_MANY_REQUESTS with a
 * message and `Retry-After`, and writes nothing; the count is exact across API processes.
 */
const tb = apiTestbed();
const servers: ServedApi[] = [];
const clients: Db[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const client of clients) await client.$disconnect();
});

/** An API server with these limits, on its own database client when `ownClient` (a second process). */
async function serve(runLimits: RunStartLimits, ownClient = false): Promise<ServedApi> {
  let db = tb.db;
  if (ownClient) {
    db = createDb(tb.url);
    clients.push(db);
  }
  const deps: ApiDeps = { db, dispatch: tb.deps.dispatch, runLimits };
  const server = await serveApi(deps, { db, bus: tb.live.bus });
  servers.push(server);
  return server;
}

/** A fresh team (so each test counts from zero), an agent and an operator token. */
async function team() {
  const fx = await createTeamFixture(tb.db);
  const agent = await createAgentFixture(tb.db, fx.teamId);
  const token = (await issueToken(tb.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  return { fx, agent, token };
}

interface CallResult {
  ok: boolean;
  code?: string;
  message?: string;
  data?: unknown;
}

/** POSTs one tRPC batch of `calls` (path and input), as the dashboard's batching client does. */
async function batch(server: ServedApi, token: string, calls: Array<[string, Record<string, unknown>]>) {
  const body = Object.fromEntries(calls.map(([, input], i) => [String(i), { json: input }]));
  const response = await fetch(`${server.url}/api/trpc/${calls.map(([path]) => path).join(',')}?batch=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answers = (await response.json()) as Array<{ result?: { data: { json: unknown } }; error?: { json: { message: string; data: { code: string } } } }>;
  const results: CallResult[] = answers.map((a) =>
    a.result ? { ok: true, data: a.result.data.json } : { ok: false, code: a.error!.json.data.code, message: a.error!.json.message },
  );
  return { status: response.status, retryAfter: response.headers.get('retry-after'), results };
}

const createCall = (teamId: string, agentId: string, goal: string): [string, Record<string, unknown>] => ['runs.create', { teamId, agentId, goal }];

describe('run-start limits per team', () => {
  it('refuses starts past the per-minute limit with 429 and Retry-After, in a batch and alone, for runs, graph runs, forks and resumes', async () => {
    const server = await serve({ perMinute: 5, maxQueued: 0 });
    const { fx, agent, token } = await team();
    // A graph to run later (made before the limit is reached; creating a graph starts nothing).
    const graph = await (await callerAs(tb.deps, { userId: fx.members.operator.id })).graphs.create({
      teamId: fx.teamId,
      name: 'limits-graph',
      definition: graphDefinitionFor(agent.agentId),
    });

    const first = await batch(
      server,
      token,
      Array.from({ length: 8 }, (_, i) => createCall(fx.teamId, agent.agentId, `burst ${i}`)),
    );
    expect(first.status).toBe(207);
    expect(first.results.filter((r) => r.ok)).toHaveLength(5);
    const refused = first.results.filter((r) => !r.ok);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r).toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        message: expect.stringMatching(
          /^This team started 5 runs, forks or resumes in the last minute, its limit \(LOOPLANE_RUNS_PER_MINUTE\); try again in \d+ s$/,
        ),
      });
    }
    expect(Number(first.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(first.retryAfter)).toBeLessThanOrEqual(60);
    // Refused creates wrote nothing: five runs, five audit rows.
    expect(await tb.db.run.count({ where: { teamId: fx.teamId } })).toBe(5);
    expect(await tb.db.auditLog.count({ where: { teamId: fx.teamId, action: 'run.created' } })).toBe(5);

    const alone = await batch(server, token, [createCall(fx.teamId, agent.agentId, 'one more')]);
    expect(alone).toMatchObject({ status: 429, results: [{ ok: false, code: 'TOO_MANY_REQUESTS' }] });
    expect(Number(alone.retryAfter)).toBeGreaterThanOrEqual(1);

    const graphRun = await batch(server, token, [['runs.create', { teamId: fx.teamId, graphId: graph.id, goal: 'swarm' }]]);
    expect(graphRun).toMatchObject({ status: 429, results: [{ ok: false, code: 'TOO_MANY_REQUESTS' }] });

    // A finished run's session, to fork and to resume.
    const runId = (first.results.find((r) => r.ok)!.data as { runId: string }).runId;
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true } });
    const main = await tb.db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
    await appendEvents(tb.db, runId, main.id, [{ type: 'run.started', payload: { goal: run.goal, config: main.config as Prisma.InputJsonValue } }]);
    await tb.db.session.update({ where: { id: main.id }, data: { status: 'succeeded' } });
    const fork = await batch(server, token, [['sessions.fork', { teamId: fx.teamId, sessionId: main.id, atEvent: 1 }]]);
    expect(fork).toMatchObject({ status: 429, results: [{ ok: false, code: 'TOO_MANY_REQUESTS' }] });
    const resume = await batch(server, token, [['sessions.resume', { teamId: fx.teamId, sessionId: main.id, message: 'again' }]]);
    expect(resume).toMatchObject({ status: 429, results: [{ ok: false, code: 'TOO_MANY_REQUESTS' }] });
    expect(await tb.db.session.count({ where: { runId } })).toBe(1);
    expect(await tb.db.session.findUniqueOrThrow({ where: { id: main.id } })).toMatchObject({ status: 'succeeded' });

    // Another team is not affected, and a server with room admits the fork and the resume.
    const other = await team();
    expect((await batch(server, other.token, [createCall(other.fx.teamId, other.agent.agentId, 'elsewhere')])).status).toBe(200);
    const roomy = await serve({ perMinute: 100, maxQueued: 0 });
    expect((await batch(roomy, token, [['sessions.fork', { teamId: fx.teamId, sessionId: main.id, atEvent: 1 }]])).status).toBe(200);
    expect((await batch(roomy, token, [['sessions.resume', { teamId: fx.teamId, sessionId: main.id, message: 'again' }]])).status).toBe(200);
    expect(await tb.db.auditLog.count({ where: { teamId: fx.teamId, action: { in: ['session.forked', 'session.resumed'] } } })).toBe(2);
  });

  it('counts exactly across API processes: concurrent bursts on two servers admit the limit, no more', async () => {
    const limits = { perMinute: 7, maxQueued: 0 };
    const [a, b] = [await serve(limits, true), await serve(limits, true)];
    const { fx, agent, token } = await team();
    const burst = (server: ServedApi, label: string) =>
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          batch(server, token, [createCall(fx.teamId, agent.agentId, `${label} ${i}`), createCall(fx.teamId, agent.agentId, `${label} ${i}b`)]),
        ),
      );
    const answers = (await Promise.all([burst(a, 'a'), burst(b, 'b')])).flat();
    const results = answers.flatMap((answer) => answer.results);
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    expect(results.filter((r) => !r.ok).every((r) => r.code === 'TOO_MANY_REQUESTS')).toBe(true);
    expect(await tb.db.run.count({ where: { teamId: fx.teamId } })).toBe(7);
  });

  it('caps the queued runs of a team; a start is admitted again once one leaves the queue, and forks are not queued runs', async () => {
    const server = await serve({ perMinute: 0, maxQueued: 3 });
    const { fx, agent, token } = await team();
    const created = await batch(
      server,
      token,
      Array.from({ length: 4 }, (_, i) => createCall(fx.teamId, agent.agentId, `queued ${i}`)),
    );
    expect(created.results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(created.results[3]).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'This team has 3 queued runs, its limit (LOOPLANE_MAX_QUEUED_RUNS); wait for some to start, or cancel some',
    });
    expect(created.retryAfter).toBe('15');

    // One starts (the worker would make it running): room for one more.
    const runId = (created.results[0]!.data as { runId: string }).runId;
    await tb.db.run.update({ where: { id: runId }, data: { status: 'running' } });
    expect((await batch(server, token, [createCall(fx.teamId, agent.agentId, 'now')])).status).toBe(200);
    expect((await batch(server, token, [createCall(fx.teamId, agent.agentId, 'full again')])).status).toBe(429);

    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true } });
    const main = await tb.db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
    await appendEvents(tb.db, runId, main.id, [{ type: 'run.started', payload: { goal: run.goal, config: main.config as Prisma.InputJsonValue } }]);
    expect((await batch(server, token, [['sessions.fork', { teamId: fx.teamId, sessionId: main.id, atEvent: 1 }]])).status).toBe(200);
  });
});

describe('without limits', () => {
  let server: ServedApi;
  beforeAll(async () => {
    server = await serve({ perMinute: 0, maxQueued: 0 });
  });

  it('0 turns both limits off', async () => {
    const { fx, agent, token } = await team();
    const answer = await batch(
      server,
      token,
      Array.from({ length: 20 }, (_, i) => createCall(fx.teamId, agent.agentId, `free ${i}`)),
    );
    expect(answer.status).toBe(200);
    expect(answer.retryAfter).toBeNull();
  });
});
