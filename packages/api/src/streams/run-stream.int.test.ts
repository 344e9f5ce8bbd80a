import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { channels } from '@looplane/queue';
import type { ApiDeps } from '../context';
import { decodeWireEvent, parseWireEvent } from '@looplane/events';
import {
  appendEvents,
  appendTestEvents,
  callerAs,
  createAgentFixture,
  createTeamFixture,
  issueToken,
  sessionOf,
  type AgentFixture,
  type TeamFixture,
} from '../testing/fixtures';
import { createTestLive, testRedisUrl, type TestLive } from '../testing/live';
import { SseReader } from '../testing/sse-reader';
import { handleRunStream, type StreamDeps } from './run-stream';
import { handleTeamActivityStream } from './team-stream';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let streamDeps: StreamDeps;
let fx: TeamFixture;
let agent: AgentFixture;
let redis: Redis;

interface EventData {
  eventNo: number;
  sessionId: string;
  seq: number;
  type: string;
  payload: { text: string };
  createdAt: string;
}

async function newRun(): Promise<{ runId: string; sessionId: string }> {
  const api = await callerAs(deps, { userId: fx.members.operator.id });
  const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'stream me' });
  const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
  return { runId, sessionId: run.mainSessionId! };
}

/** Plays the worker: commit, then publish the wake-up. */
async function append(run: { runId: string; sessionId: string }, count: number, publish = true): Promise<number[]> {
  const numbers = await appendTestEvents(db.db, run.runId, run.sessionId, count);
  if (publish) await live.bus.publishRunEvent({ runId: run.runId, sessionId: run.sessionId, eventNo: numbers[numbers.length - 1]!, type: 'message.added' });
  return numbers;
}

function open(runId: string, init: { userId?: string | null; headers?: Record<string, string>; query?: string } = {}) {
  const controller = new AbortController();
  const request = new Request(`http://localhost/api/runs/${runId}/stream${init.query ?? ''}`, { headers: init.headers ?? {}, signal: controller.signal });
  const userId = init.userId === undefined ? fx.members.viewer.id : init.userId;
  const response = handleRunStream(request, runId, streamDeps, { session: sessionOf(userId) });
  return { response, abort: () => controller.abort() };
}

async function subscribers(channel: string): Promise<number> {
  const reply = (await redis.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  redis = new Redis(testRedisUrl);
  deps = { db: db.db, dispatch: live.dispatch };
  streamDeps = { db: db.db, bus: live.bus, heartbeatMs: 60_000, pollMs: 60_000 };
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
});
afterAll(async () => {
  redis?.disconnect();
  await live?.close();
  await db?.drop();
});

describe('GET /api/runs/{runId}/stream', () => {
  it('401 without a session or a valid token; 404 for another team’s run or no run; 400 for a bad Last-Event-ID', async () => {
    const run = await newRun();
    expect((await open(run.runId, { userId: null }).response).status).toBe(401);
    expect((await open(run.runId, { userId: null, headers: { authorization: 'Bearer llp_nope' } }).response).status).toBe(401);
    const outsider = await open(run.runId, { userId: fx.outsider.id }).response;
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual({ error: { message: 'No such run' } });
    expect((await open('no-such-run').response).status).toBe(404);
    expect((await open('../../etc').response).status).toBe(404);
    expect((await open(run.runId, { headers: { 'last-event-id': 'ten' } }).response).status).toBe(400);
  });

  it('sends the backlog from Postgres, then follows live; a Bearer token works like a session', async () => {
    const run = await newRun();
    await append(run, 5);
    const token = await issueToken(db.db, fx.teamId, fx.members.viewer.id, 'viewer');
    const { response, abort } = open(run.runId, { userId: null, headers: { authorization: `Bearer ${token.secret}` } });
    const res = await response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = new SseReader(res.body!);
    const backlog = await reader.data<EventData>(5);
    expect(backlog.map((m) => m.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(backlog[0]!.data).toMatchObject({ eventNo: 1, sessionId: run.sessionId, seq: 1, type: 'message.added', payload: { text: 'event 1' } });
    // The stream's JSON (built by Postgres) is the same event runs.events returns.
    const api = await callerAs(deps, { userId: fx.members.viewer.id });
    const viaApi = (await api.runs.events({ teamId: fx.teamId, runId: run.runId })).events;
    expect(backlog.map((m) => m.data)).toEqual(viaApi.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })));
    await append(run, 3);
    expect((await reader.data<EventData>(3)).map((m) => m.data.eventNo)).toEqual([6, 7, 8]);
    abort();
  });

  it('sends each payload as the engine codec reads it (old versions upcast, defaults applied), an unreadable row as stored', async () => {
    const run = await newRun();
    // Rows as an older worker wrote them (version 1), and one from a newer worker.
    await appendEvents(db.db, run.runId, run.sessionId, [
      { type: 'tool.finished', payload: { callId: 'c1', ok: true, output: 'done', truncated: false } },
      { type: 'egress.decided', payload: { callId: 'c1', kind: 'http', method: 'GET', host: 'api.example', port: 443, allowed: true, reason: 'allowed host' } },
      { type: 'tool.paused', payload: { callId: 'c1' } },
    ]);
    const reader = new SseReader((await open(run.runId).response).body!);
    const frames = (await reader.data<unknown>(3)).map((m) => m.data);
    expect(frames).toMatchObject([
      { type: 'tool.finished', version: 2, payload: { callId: 'c1', ok: true } },
      { type: 'egress.decided', version: 1, payload: { injectedHeaders: [] } },
      { type: 'tool.paused', version: 1, payload: { callId: 'c1' } },
    ]);
    // runs.events (and REST) return the same events; the shared decoder reads every one.
    const api = await callerAs(deps, { userId: fx.members.viewer.id });
    const viaApi = (await api.runs.events({ teamId: fx.teamId, runId: run.runId })).events;
    expect(frames).toEqual(viaApi.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })));
    expect(frames.map((f) => decodeWireEvent(parseWireEvent(f)).type)).toEqual(['tool.finished', 'egress.decided', 'unknown']);
    await reader.cancel();
  });

  it('resumes after Last-Event-ID (header or query) with exactly the rest', async () => {
    const run = await newRun();
    await append(run, 10);
    const first = open(run.runId);
    const reader = new SseReader((await first.response).body!);
    expect((await reader.data<EventData>(10)).at(-1)!.id).toBe('10');
    first.abort();
    await append(run, 4); // while disconnected
    const again = new SseReader((await open(run.runId, { headers: { 'last-event-id': '10' } }).response).body!);
    expect((await again.data<EventData>(4)).map((m) => m.data.eventNo)).toEqual([11, 12, 13, 14]);
    const viaQuery = new SseReader((await open(run.runId, { query: '?lastEventId=12' }).response).body!);
    expect((await viaQuery.data<EventData>(2)).map((m) => m.data.eventNo)).toEqual([13, 14]);
    await Promise.all([again.cancel(), viaQuery.cancel()]);
  });

  it('?tail=N opens at the run’s last N events; a position given wins; a bad tail is 400', async () => {
    const run = await newRun();
    await append(run, 10);
    const tail = new SseReader((await open(run.runId, { query: '?tail=3' }).response).body!);
    expect((await tail.data<EventData>(3)).map((m) => m.data.eventNo)).toEqual([8, 9, 10]);
    // More than the run has: all of it.
    const all = new SseReader((await open(run.runId, { query: '?tail=50' }).response).body!);
    expect((await all.data<EventData>(10)).map((m) => m.data.eventNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // A reconnect (Last-Event-ID) resumes where it was, whatever the tail says.
    const resumed = new SseReader((await open(run.runId, { query: '?tail=3', headers: { 'last-event-id': '4' } }).response).body!);
    expect((await resumed.data<EventData>(6)).map((m) => m.data.eventNo)).toEqual([5, 6, 7, 8, 9, 10]);
    for (const bad of ['0', '-1', 'x', '1000001', '100001']) expect((await open(run.runId, { query: `?tail=${bad}` }).response).status).toBe(400);
    await Promise.all([tail.cancel(), all.cancel(), resumed.cancel()]);
  });

  it('no gap and no duplicate while a writer appends and the client keeps reconnecting', async () => {
    const run = await newRun();
    const total = 400;
    const writer = (async () => {
      for (let written = 0; written < total; ) {
        const count = Math.min(total - written, 1 + Math.floor(Math.random() * 7));
        await append(run, count);
        written += count;
        await new Promise((r) => setTimeout(r, Math.random() * 4));
      }
    })();
    const received: number[] = [];
    let lastId = 0;
    while (received.length < total) {
      const connection = open(run.runId, { headers: { 'last-event-id': String(lastId) } });
      const reader = new SseReader((await connection.response).body!);
      // Drop the connection after a random number of events, like a flaky network.
      const take = Math.min(total - received.length, 1 + Math.floor(Math.random() * 60));
      for (const message of await reader.data<EventData>(take, 10_000)) {
        received.push(message.data.eventNo);
        lastId = Number(message.id);
      }
      connection.abort();
    }
    await writer;
    expect(received).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it('a lost wake-up only delays the client until the next poll', async () => {
    const run = await newRun();
    const quick = { ...streamDeps, pollMs: 200 };
    const request = new Request(`http://localhost/api/runs/${run.runId}/stream`);
    const reader = new SseReader((await handleRunStream(request, run.runId, quick, { session: sessionOf(fx.members.viewer.id) })).body!);
    await append(run, 2, false); // committed, never published
    expect((await reader.data<EventData>(2, 3000)).map((m) => m.data.eventNo)).toEqual([1, 2]);
    await reader.cancel();
  });

  it('sends heartbeats while idle, and unsubscribes when the client goes away', async () => {
    const run = await newRun();
    const controller = new AbortController();
    const request = new Request(`http://localhost/api/runs/${run.runId}/stream`, { signal: controller.signal });
    const response = await handleRunStream(request, run.runId, { ...streamDeps, heartbeatMs: 150 }, { session: sessionOf(fx.members.viewer.id) });
    const reader = new SseReader(response.body!);
    expect(await reader.next()).toMatchObject({ retry: 2000 });
    expect(await reader.next(2000)).toEqual({ comment: 'keep-alive' });
    expect(await subscribers(channels.run(run.runId))).toBe(1);
    controller.abort();
    await expect.poll(() => subscribers(channels.run(run.runId)), { timeout: 5000 }).toBe(0);
    expect(await reader.next()).toBeNull();
  });
});

describe('GET /api/teams/{teamId}/activity', () => {
  it('401 signed out, 404 for a team you are not in', async () => {
    const request = () => new Request(`http://localhost/api/teams/${fx.teamId}/activity`);
    expect((await handleTeamActivityStream(request(), fx.teamId, streamDeps, { session: null })).status).toBe(401);
    expect((await handleTeamActivityStream(request(), fx.teamId, streamDeps, { session: sessionOf(fx.outsider.id) })).status).toBe(404);
  });

  it('starts with ready and the approval count, then relays run status changes', async () => {
    const controller = new AbortController();
    const request = new Request(`http://localhost/api/teams/${fx.teamId}/activity`, { signal: controller.signal });
    const response = await handleTeamActivityStream(request, fx.teamId, streamDeps, { session: sessionOf(fx.members.viewer.id) });
    expect(response.status).toBe(200);
    const reader = new SseReader(response.body!);
    expect((await reader.data(2)).map((m) => m.data)).toEqual([{ kind: 'ready' }, { kind: 'approvals.count', pending: 0 }]);
    // runs.create announces the new run on the team channel.
    const run = await newRun();
    expect((await reader.data(1))[0]!.data).toEqual({ kind: 'run.status', runId: run.runId, status: 'queued' });
    await live.bus.publishTeamActivity(fx.teamId, { kind: 'run.status', runId: run.runId, status: 'running' });
    expect((await reader.data(1))[0]!.data).toMatchObject({ status: 'running' });
    controller.abort();
    await expect.poll(() => subscribers(channels.team(fx.teamId)), { timeout: 5000 }).toBe(0);
  });
});
