import { createDispatch } from '@looplane/api';
import { createTeamFixture, issueToken, serveApi, SseReader, type ServedApi, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { Role } from '@looplane/shared';
import { wireTransformer } from '@looplane/shared/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';

/**
 * Tool arguments with the keys superjson refuses (`__proto__`, `constructor`, `prototype`), sent
 * by a model in a real run on the real worker, held for approval, approved and run: every listing
 * that returns the stored call answers over HTTP with the keys the model sent (escaped on the
 * wire, restored by the API's transformer), for every role; nothing's prototype changes.
 */
const s = setUpRuntimeSuite('reserved-keys');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const ARGS =
  '{"text":"hi","__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}},"prototype":1,"~__proto__":"looks escaped","nested":[{"__proto__":null}]}';

let fx: TeamFixture;
let api: ServedApi;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  const document = { version: 1, name: 'hold echo', default: 'allow', rules: [{ id: 'hold-echo', match: { tool: 'echo' }, outcome: 'require_approval' }] };
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'hold echo', activeVersion: 1, versions: { create: { version: 1, document } } } });
  api = await serveApi(
    { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) },
    { db: s.t.db, bus: s.client.bus, heartbeatMs: 500, pollMs: 500 },
  );
  for (const role of ['viewer', 'operator', 'approver', 'admin'] as const)
    tokens[role] = (await issueToken(s.t.db, fx.teamId, fx.members[role].id, role)).secret;
});
afterAll(async () => {
  await api?.close();
});

interface Answer {
  status: number;
  /** The body as sent: the wire form of the keys. */
  raw: string;
  data: unknown;
}

/** One tRPC call over HTTP, with the API's wire transformer. */
async function trpc(role: Role, path: string, input: Record<string, unknown>, method: 'GET' | 'POST' = 'GET'): Promise<Answer> {
  const wire = JSON.stringify(wireTransformer.serialize(input));
  const url = method === 'GET' ? `${api.url}/api/trpc/${path}?input=${encodeURIComponent(wire)}` : `${api.url}/api/trpc/${path}`;
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: wire } : {}),
  });
  const raw = await response.text();
  const body = JSON.parse(raw) as { result?: { data: Parameters<typeof wireTransformer.deserialize>[0] } };
  return { status: response.status, raw, data: body.result ? wireTransformer.deserialize(body.result.data) : body };
}

/** Every object in `value` (at any depth) that has an own `__proto__` key. */
function withProtoKey(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (value === null || typeof value !== 'object') return found;
  if (Object.hasOwn(value, '__proto__')) found.push(value as Record<string, unknown>);
  for (const item of Object.values(value)) withProtoKey(item, found);
  return found;
}

/** JSON with keys sorted at every depth (jsonb keeps its own key order), own `__proto__` keys included. */
function canonical(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    v === null || typeof v !== 'object'
      ? v
      : Array.isArray(v)
        ? v.map(sorted)
        : Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          );
  return JSON.stringify(sorted(value));
}

/** The model's arguments, as every listing must give them back. */
function expectModelArgs(args: unknown): void {
  expect(canonical(args)).toBe(canonical(JSON.parse(ARGS)));
  const record = args as Record<string, unknown>;
  expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toEqual({ isAdmin: true });
  expect(record.isAdmin).toBeUndefined();
}

describe('a model that sends __proto__, constructor and prototype keys', () => {
  it('leaves every listing readable over HTTP, with the keys it sent, before and after the call runs', { timeout: 60_000 }, async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ calls: [{ tool: 'echo', rawArgs: ARGS }] }, { finish: 'done' }] });
    const run = await createTestRun(s.t.db, agent, { config });
    // The operator started it, so the approver may decide (four eyes).
    await s.t.db.run.update({ where: { id: run.runId }, data: { createdById: fx.members.operator.id } });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    const approvalId = (await waitFor(() => s.t.db.approval.findFirst({ where: { runId: run.runId } }).then((a) => a ?? undefined), 10_000, 'the approval')).id;
    const teamId = fx.teamId;

    // The whole inbox, for every role that may read it.
    for (const role of ['viewer', 'operator', 'approver', 'admin'] as const) {
      const list = await trpc(role, 'approvals.list', { teamId, status: 'pending' });
      expect(list.status, `approvals.list as ${role}: ${list.raw.slice(0, 300)}`).toBe(200);
      expect(list.raw).toContain('"~__proto__"');
      expectModelArgs(withProtoKey(list.data).find((o) => o.text === 'hi'));
    }
    const got = await trpc('viewer', 'approvals.get', { teamId, approvalId });
    expect(got.status).toBe(200);
    expectModelArgs(withProtoKey(got.data).find((o) => o.text === 'hi'));

    // The call runs once approved.
    const decided = await trpc('approver', 'approvals.decide', { teamId, approvalId, decision: 'approve', comment: 'fine' }, 'POST');
    expect(decided.status, decided.raw).toBe(200);
    expect(await waitForRun(s.t.db, run.runId)).toMatchObject({ status: 'succeeded', result: 'done' });
    const finished = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'tool.finished' } });
    expect(finished.payload).toMatchObject({ ok: true, output: 'hi' });

    const readable: Array<[Role, string, Record<string, unknown>]> = [
      ['viewer', 'runs.events', { teamId, runId: run.runId }],
      ['viewer', 'sessions.events', { teamId, sessionId: run.sessionId }],
      ['viewer', 'sessions.tree', { teamId, runId: run.runId }],
      ['viewer', 'runs.get', { teamId, runId: run.runId }],
      ['viewer', 'runs.list', { teamId }],
      ['viewer', 'approvals.list', { teamId }],
      ['viewer', 'approvals.get', { teamId, approvalId }],
      ['admin', 'audit.list', { teamId }],
      ['admin', 'audit.export', { teamId }],
    ];
    for (const [role, path, input] of readable) {
      const answer = await trpc(role, path, input);
      expect(answer.status, `${path}: ${answer.raw.slice(0, 300)}`).toBe(200);
    }
    // Each event that carries the call has the model's arguments, key for key.
    const events = (await trpc('viewer', 'runs.events', { teamId, runId: run.runId })).data as { events: { type: string; payload: { args?: unknown } }[] };
    const carrying = events.events.filter((e) => ['tool.requested', 'approval.requested', 'tool.started'].includes(e.type));
    expect(carrying.map((e) => e.type)).toEqual(['tool.requested', 'approval.requested', 'tool.started']);
    for (const event of carrying) expectModelArgs(event.payload.args);
    // The policy decision's audit row holds the arguments too.
    const audit = await trpc('admin', 'audit.list', { teamId, action: 'policy.' });
    expect(withProtoKey(audit.data).some((o) => o.text === 'hi')).toBe(true);

    // The SSE stream carries plain JSON: the keys as they are stored.
    const stream = await fetch(`${api.url}/api/runs/${run.runId}/stream`, { headers: { authorization: `Bearer ${tokens.viewer}` } });
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream.body!);
    const total = (await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).lastEventNo;
    const frames = await reader.data<{ type: string; payload: { args?: unknown } }>(Number(total), 10_000);
    await reader.cancel();
    const streamed = frames.filter((f) => f.data.type === 'tool.started');
    expect(streamed).toHaveLength(1);
    expectModelArgs(streamed[0]!.data.payload.args);

    // Nothing anywhere in this process (the worker's runtime included) gained a prototype property.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
