import { describe, expect, it } from 'vitest';
import { appendTestEvents } from '../testing/fixtures';
import { problemOf } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { SseReader } from '../testing/sse-reader';
import { budgetRaised, messageSent, runCancelled, runCreated, runDetail, runEventPage, runPage } from './schemas/runs.schemas';

/** `/api/v1/runs/*` over real HTTP with team tokens; every body checked against its declared schema. */
const rest = restTestbed();

async function startRun(goal: string): Promise<string> {
  const { runId } = await rest.as('operator').ok('createRun', runCreated, { body: { agentId: rest.tb.agent.agentId, goal } });
  return runId;
}

describe('POST /api/v1/runs', () => {
  it('starts a run of an agent by id: 201, Location, the run queued with its audit row', async () => {
    const reply = await rest
      .as('operator')
      .call('createRun', { body: { agentId: rest.tb.agent.agentId, goal: 'Summarise the issues', budget: { tokens: 5000 } } });
    expect(reply.status).toBe(201);
    const { runId } = runCreated.parse(reply.body);
    expect(reply.headers.get('location')).toBe(`/api/v1/runs/${runId}`);
    const run = await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({
      teamId: rest.tb.fx.teamId,
      status: 'queued',
      goal: 'Summarise the issues',
      createdById: rest.tb.fx.members.operator.id,
      budget: { tokens: 5000, onExceed: 'wait' },
    });
    expect(run.createdByTokenId).not.toBeNull();
    expect(await rest.tb.db.auditLog.count({ where: { action: 'run.created', targetId: runId, actorType: 'token' } })).toBe(1);
    expect((await rest.tb.live.jobs()).some((job) => job.runId === runId && job.reason === 'start')).toBe(true);
  });

  it('starts a run of an agent by name; an unknown name is 404 in problem+json', async () => {
    const { runId } = await rest.as('operator').ok('createRun', runCreated, { body: { agentName: rest.tb.agent.agentName, goal: '/standup' } });
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } })).goal).toBe('Summarise yesterday.');
    const missing = await rest.as('operator').call('createRun', { body: { agentName: 'no-such-agent', goal: 'x' } });
    expect(problemOf(missing, 404, 'NOT_FOUND').detail).toBe('No agent named "no-such-agent" in this team');
  });

  it('refuses naming two targets, or none, with 422 naming the field', async () => {
    const both = problemOf(
      await rest.as('operator').call('createRun', { body: { agentId: rest.tb.agent.agentId, agentName: 'x', goal: 'g' } }),
      422,
      'UNPROCESSABLE_CONTENT',
    );
    expect(both.errors).toEqual([
      { in: 'body', path: 'agentName', message: 'give one of agentId, agentName, graphId or graphName, not agentId and agentName' },
    ]);
    const none = problemOf(await rest.as('operator').call('createRun', { body: { goal: 'g' } }), 422);
    expect(none.errors?.[0]).toMatchObject({ in: 'body', path: 'agentId' });
  });
});

describe('POST /api/v1/runs with a workspace', () => {
  it('stores where the files come from; each refusal of the checks is its own problem status, and starts nothing', async () => {
    const { db, fx } = rest.tb;
    await (await rest.tb.as('admin')).policies.save({
      teamId: fx.teamId,
      document: { version: 1, default: 'allow', workspace: { sources: ['https://git.example.test/acme/**'] } },
    });
    await db.teamSecret.create({ data: { teamId: fx.teamId, name: 'DEPLOY_KEY', kind: 'ssh_key', ciphertext: 'v1.sealed-elsewhere', last4: 'alue' } });
    const agentId = rest.tb.agent.agentId;
    const git = { url: 'https://git.example.test/acme/app.git', ref: 'main', depth: 3 };
    const { runId } = await rest.as('operator').ok('createRun', runCreated, { body: { agentId, goal: 'from a repository', workspace: { git } } });
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).workspace).toEqual({ git });

    const runs = await db.run.count();
    const cases: Array<[unknown, number, string, RegExp]> = [
      [{ git: { url: 'https://elsewhere.example.test/x.git' } }, 403, 'FORBIDDEN', /^The team policy refuses this repository/],
      [{ archive: { uploadId: 'cmnosuchupload0000000000' } }, 404, 'NOT_FOUND', /^No upload cmnosuchupload0000000000 in this team/],
      [{ session: { sessionId: 'cmnosuchsession000000000' } }, 404, 'NOT_FOUND', /^No such session in this team$/],
      [{ git: { ...git, secretRef: 'NO_SUCH_SECRET' } }, 412, 'PRECONDITION_FAILED', /names no team secret NO_SUCH_SECRET/],
      [{ git: { ...git, secretRef: 'DEPLOY_KEY' } }, 400, 'BAD_REQUEST', /^an https repository needs a token secret; DEPLOY_KEY is a ssh_key secret$/],
      [{ git: { url: 'not a url' } }, 422, 'UNPROCESSABLE_CONTENT', /repository URL must not contain spaces/],
      [{ git: { url: 'https://u:secret@git.example.test/acme/app.git' } }, 422, 'UNPROCESSABLE_CONTENT', /must not hold a password or token/],
    ];
    for (const [workspace, status, code, detail] of cases) {
      const reply = await rest.as('operator').call('createRun', { body: { agentId, goal: 'refused', workspace } });
      expect(problemOf(reply, status, code).detail, JSON.stringify(workspace)).toMatch(detail);
    }
    expect(await db.run.count()).toBe(runs);
  });
});

describe('GET /api/v1/runs', () => {
  it('lists with the runs.list filters and pages by cursor, with Link: rel="next"', async () => {
    const tag = `page-${Date.now()}`;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await startRun(`${tag} ${i}`));
    const api = rest.as('viewer');
    const first = await api.call('listRuns', { query: { text: tag, limit: 2, status: ['queued', 'running'] } });
    const page = runPage.parse(first.body);
    expect(page.runs.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(page.runs[0]).toMatchObject({ status: 'queued', viaToken: true, agent: { id: rest.tb.agent.agentId } });
    expect(page.nextCursor).not.toBeNull();
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toContain(`cursor=${page.nextCursor}`);
    const second = runPage.parse((await api.send('GET', next!)).body);
    expect(second).toEqual({ runs: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect(await api.ok('listRuns', runPage, { query: { text: tag, status: ['succeeded'] } })).toEqual({ runs: [], nextCursor: null });
  });

  it('refuses a bad filter value or a foreign cursor with 400 and the procedure’s message', async () => {
    const bad = problemOf(await rest.as('viewer').call('listRuns', { query: { status: ['finished'] } }), 400, 'BAD_REQUEST');
    expect(bad.errors?.[0]).toMatchObject({ in: 'query', path: 'status.0' });
    const cursor = problemOf(await rest.as('viewer').call('listRuns', { query: { cursor: 'bm90LWEtY3Vyc29y' } }), 400, 'BAD_REQUEST');
    expect(cursor.detail).toBe('cursor: not a cursor returned by runs.list');
  });
});

describe('a run by id', () => {
  it('gets the run with its sessions, ledger and people', async () => {
    const runId = await startRun('Read me');
    const run = await rest.as('viewer').ok('getRun', runDetail, { params: { runId } });
    expect(run).toMatchObject({
      id: runId,
      status: 'queued',
      goal: 'Read me',
      createdBy: { id: rest.tb.fx.members.operator.id },
      budget: { onExceed: 'wait' },
      pendingMessages: 0,
    });
    expect(run.sessions).toHaveLength(1);
    expect(new Date(run.createdAt).toISOString()).toBe(run.createdAt);
  });

  it('sends a message (201) and cancels (cancel twice is harmless); a finished run cannot be cancelled (412)', async () => {
    const runId = await startRun('Steer me');
    const sent = await rest.as('operator').ok('sendRunMessage', messageSent, { params: { runId }, body: { text: 'Also check the tests' } });
    expect(sent.delivered).toBe('wake');
    expect(await rest.tb.db.inboxMessage.count({ where: { runId, id: sent.messageId } })).toBe(1);
    const cancelled = await rest.as('operator').ok('cancelRun', runCancelled, { params: { runId } });
    expect(cancelled).toMatchObject({ runId, alreadyRequested: false });
    expect(await rest.as('operator').ok('cancelRun', runCancelled, { params: { runId } })).toMatchObject({
      alreadyRequested: true,
      cancelRequestedAt: cancelled.cancelRequestedAt,
    });
    await rest.tb.db.run.update({ where: { id: runId }, data: { status: 'cancelled', finishedAt: new Date() } });
    expect(problemOf(await rest.as('operator').call('cancelRun', { params: { runId } }), 412, 'PRECONDITION_FAILED').detail).toBe(
      'The run already finished (cancelled)',
    );
  });

  it('raises the budget as an approver; an operator gets 403 with the procedure’s message', async () => {
    const runId = await startRun('Spend');
    const raised = await rest.as('approver').ok('raiseRunBudget', budgetRaised, { params: { runId }, body: { tokens: 1000 } });
    expect(raised).toEqual({ runId, limits: { tokens: null, costMicros: null, toolCalls: null }, resumed: false });
    expect(problemOf(await rest.as('operator').call('raiseRunBudget', { params: { runId }, body: { tokens: 1 } }), 403, 'FORBIDDEN').detail).toBe(
      'This action needs the approver role; you are operator',
    );
  });
});

describe('GET /api/v1/runs/{runId}/events', () => {
  it('pages the events like runs.events and links the live stream from after the page', async () => {
    const runId = await startRun('Talk');
    const run = await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    await appendTestEvents(rest.tb.db, runId, run.mainSessionId!, 5);
    const api = rest.as('viewer');
    const first = await api.call('listRunEvents', { params: { runId }, query: { limit: 3 } });
    const page = runEventPage.parse(first.body);
    expect(page).toMatchObject({ nextAfter: 3, lastEventNo: 5, hasMore: true, stream: `/api/runs/${runId}/stream?lastEventId=3` });
    expect(page.events.map((e) => e.eventNo)).toEqual([1, 2, 3]);
    expect(page.events[0]).toMatchObject({ type: 'message.added', payload: { role: 'user', text: 'event 1' }, sessionId: run.mainSessionId });
    const link = first.headers.get('link') ?? '';
    expect(link).toContain(`<${page.stream}>; rel="stream"`);
    expect(link).toContain(`</api/v1/runs/${runId}/events?after=3&limit=3>; rel="next"`);

    const rest2 = await api.ok('listRunEvents', runEventPage, { params: { runId }, query: { after: 3 } });
    expect(rest2).toMatchObject({ nextAfter: 5, hasMore: false });
    expect(rest2.events.map((e) => e.eventNo)).toEqual([4, 5]);

    // The linked stream is the run's SSE stream, starting after the page with the same token.
    const stream = await fetch(rest.url + page.stream, { headers: { authorization: `Bearer ${rest.token('viewer')}` } });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = new SseReader(stream.body!);
    const frames = await reader.data<{ eventNo: number }>(2);
    expect(frames.map((f) => f.data.eventNo)).toEqual([4, 5]);
    await reader.cancel();
  });

  it('refuses an unknown query parameter with 400 naming it', async () => {
    const runId = await startRun('Strict');
    const problem = problemOf(await rest.as('viewer').send('GET', `/api/v1/runs/${runId}/events?after=0&since=4`), 400, 'BAD_REQUEST');
    expect(problem.errors).toEqual([{ in: 'query', path: 'since', message: 'unknown query parameter' }]);
  });
});
