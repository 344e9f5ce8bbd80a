import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '@looplane/db';
import { restTestbed } from '@looplane/api/testing/rest-testbed';
import { craftedTar } from '@looplane/workspaces/testing';
import { createLooplaneClient, downloadSessionPatch, ProblemError, unwrap, uploadArchive, type LooplaneClient } from '../src/index';
import { createResponseChecker, loadDocument, operationFor, operationsOf } from './document';
import { contractFixtures } from './fixtures';
import { recordingFetch, type Exchange } from './recorder';

/**
 * The contract of the REST API: every operation of the committed OpenAPI document called with
 * the generated client against a real server (Postgres, Redis, HTTP), and every body the server
 * sent checked against the document's schema for that operation and status by a JSON Schema
 * 2020-12 validator, not by the zod schemas the document was generated from. An operation added
 * to the document without a call here fails the file.
 */
// A key, so triggers (whose secrets are sealed) can be created.
const rest = restTestbed({ deps: { secretBox: new SecretBox(randomBytes(32).toString('base64')) } });
const fixtures = contractFixtures(rest);
const document = loadDocument();
const operations = operationsOf(document);
const check = createResponseChecker(document);
const exchanges: Exchange[] = [];
let servers: Awaited<ReturnType<typeof fixtures.servers>>;

type Role = Parameters<typeof rest.token>[0];
const as = (role: Role, url = servers.url): LooplaneClient => createLooplaneClient({ url, token: rest.token(role), fetch: recordingFetch(exchanges) });

beforeAll(async () => {
  servers = await fixtures.servers();
});
afterAll(async () => {
  await servers?.close();
});

describe('every documented operation, called with the generated client', () => {
  it('me, agents and graphs', async () => {
    const me = await unwrap(as('viewer').GET('/me'));
    expect(me.team).toMatchObject({ id: rest.tb.fx.teamId, role: 'viewer' });
    const agentId = rest.tb.agent.agentId;
    expect((await unwrap(as('viewer').GET('/agents'))).map((a) => a.id)).toContain(agentId);
    expect((await unwrap(as('viewer').GET('/agents/{agentId}', { params: { path: { agentId } } }))).id).toBe(agentId);
    const updated = await unwrap(
      as('operator').PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { description: 'Checked by the contract test' } }),
    );
    expect(updated.description).toBe('Checked by the contract test');

    const graphId = await fixtures.graph();
    expect((await unwrap(as('viewer').GET('/graphs'))).map((g) => g.id)).toContain(graphId);
    expect((await unwrap(as('viewer').GET('/graphs/{graphId}', { params: { path: { graphId } } }))).id).toBe(graphId);
    const started = await unwrap(
      as('operator').POST('/graphs/{graphId}/runs', {
        params: { path: { graphId }, header: { 'Idempotency-Key': 'contract-graph-run' } },
        body: { goal: 'Plan the release' },
      }),
    );
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: started.runId } })).graphId).toBe(graphId);
  });

  it('runs and their events', async () => {
    const { runId } = await unwrap(
      as('operator').POST('/runs', { body: { agentId: rest.tb.agent.agentId, goal: 'Summarise the open issues', budget: { tokens: 5000, onExceed: 'wait' } } }),
    );
    const page = await unwrap(as('viewer').GET('/runs', { params: { query: { status: ['queued', 'running'], limit: 5 } } }));
    expect(page.runs.map((r) => r.id)).toContain(runId);
    expect(await unwrap(as('viewer').GET('/runs/{runId}', { params: { path: { runId } } }))).toMatchObject({ id: runId, status: 'queued' });

    const sent = await unwrap(as('operator').POST('/runs/{runId}/messages', { params: { path: { runId } }, body: { text: 'Also check the flaky test' } }));
    expect(sent.delivered).toBe('wake');
    const raised = await unwrap(as('approver').POST('/runs/{runId}/budget', { params: { path: { runId } }, body: { tokens: 1000 } }));
    expect(raised.runId).toBe(runId);

    const started = await fixtures.startedSession();
    const events = await unwrap(as('viewer').GET('/runs/{runId}/events', { params: { path: { runId: started.runId }, query: { after: 0, limit: 1 } } }));
    expect(events).toMatchObject({ nextAfter: 1, lastEventNo: 2, hasMore: true });

    const cancelled = await unwrap(as('operator').POST('/runs/{runId}/cancel', { params: { path: { runId } } }));
    expect(cancelled).toMatchObject({ runId, alreadyRequested: false });
  });

  it('approvals', async () => {
    const { runId, approvalId } = await fixtures.pendingApproval();
    const page = await unwrap(as('viewer').GET('/approvals', { params: { query: { runId, limit: 10 } } }));
    expect(page.items.map((a) => a.id)).toEqual([approvalId]);
    expect(await unwrap(as('approver').GET('/approvals/{approvalId}', { params: { path: { approvalId } } }))).toMatchObject({
      id: approvalId,
      status: 'pending',
      canDecide: true,
    });
    const decided = await unwrap(
      as('approver').POST('/approvals/{approvalId}/decision', { params: { path: { approvalId } }, body: { decision: 'approve', comment: 'ship it' } }),
    );
    expect(decided).toMatchObject({ approvalId, status: 'approved', runId });
  });

  it('sessions: fork, replay, resume, restore, files, patch', async () => {
    const started = await fixtures.startedSession();
    const sessionId = started.sessionId;
    const forked = await unwrap(
      as('operator').POST('/sessions/{sessionId}/fork', { params: { path: { sessionId } }, body: { atEvent: 1, message: 'Try the other approach' } }),
    );
    expect(forked).toMatchObject({ runId: started.runId, parentId: sessionId, atEvent: 1 });
    const replayed = await unwrap(
      as('operator').POST('/sessions/{sessionId}/replay', { params: { path: { sessionId } }, body: { atEvent: 1, systemPrompt: 'Be brief.', mode: 'live' } }),
    );
    expect(replayed).toMatchObject({ runId: started.runId, parentId: sessionId, atEvent: 1, mode: 'live' });
    const finished = await fixtures.finishedSession();
    const resumed = await unwrap(
      as('operator').POST('/sessions/{sessionId}/resume', { params: { path: { sessionId: finished.sessionId } }, body: { message: 'Now write the tests' } }),
    );
    expect(resumed).toEqual({ sessionId: finished.sessionId, runId: finished.runId, status: 'idle' });
    const restored = await unwrap(
      as('operator').POST('/sessions/{sessionId}/restore', { params: { path: { sessionId } }, body: { atEvent: 1, paths: ['src/app.ts'] } }),
    );
    expect(restored).toMatchObject({ sessionId, runId: started.runId, atEvent: 1, commit: null, paths: ['src/app.ts'], reopened: false });
    const files = await unwrap(as('viewer').GET('/sessions/{sessionId}/files', { params: { path: { sessionId } } }));
    expect(files.node).toEqual({ kind: 'dir', path: '', entries: [] });
    const seeded = await fixtures.seededSession();
    const patch = await as('viewer').GET('/sessions/{sessionId}/patch', { params: { path: { sessionId: seeded.sessionId } }, parseAs: 'text' });
    expect(patch.response.headers.get('content-disposition')).toBe(`attachment; filename="${seeded.sessionId}.patch"`);
    // Nothing changed since the seed: the empty series, through the client's own download.
    expect(await downloadSessionPatch(as('viewer'), seeded.sessionId)).toBe('');
    await expect(downloadSessionPatch(as('viewer'), sessionId)).rejects.toMatchObject({ name: 'ProblemError', status: 412 });
  });

  it('audit export, tokens, MCP servers', async () => {
    const exported = await unwrap(as('admin').GET('/audit/export'));
    expect(exported.rows).toBeGreaterThan(0);

    const created = await unwrap(as('operator').POST('/tokens', { body: { name: 'contract', role: 'viewer', expiresInDays: 1 } }));
    expect((await unwrap(as('operator').GET('/tokens'))).map((t) => t.id)).toContain(created.id);
    expect((await unwrap(as('operator').DELETE('/tokens/{tokenId}', { params: { path: { tokenId: created.id } } }))).id).toBe(created.id);

    const server = await unwrap(as('admin').POST('/mcp-servers', { body: { name: 'files', transport: 'stdio', command: 'mcp-files', args: ['--root', '.'] } }));
    expect((await unwrap(as('viewer').GET('/mcp-servers'))).map((s) => s.name)).toContain('files');
    expect((await unwrap(as('admin').POST('/mcp-servers/{serverId}/refresh', { params: { path: { serverId: server.id } } }))).toolsCheckedAt).toBeNull();
    expect(await unwrap(as('admin').DELETE('/mcp-servers/{serverId}', { params: { path: { serverId: server.id } } }))).toEqual({
      id: server.id,
      removed: true,
    });
  });
});

describe('skills', () => {
  it('create, read, list, update with a version check, archive and restore', async () => {
    const created = await unwrap(
      as('operator').POST('/skills', {
        body: {
          name: 'release-notes',
          description: 'How this team writes release notes',
          instructions: '# Release notes\nGroup changes by area.',
          files: [{ path: 'templates/notes.md', content: '## Changes\n' }],
        },
      }),
    );
    expect(created).toMatchObject({ name: 'release-notes', version: 1, archivedAt: null });
    const skillId = created.id;
    expect(await unwrap(as('viewer').GET('/skills/{skillId}', { params: { path: { skillId } } }))).toEqual(created);
    const updated = await unwrap(
      as('operator').PATCH('/skills/{skillId}', { params: { path: { skillId } }, body: { expectedVersion: 1, description: 'Release notes, by area' } }),
    );
    expect(updated).toMatchObject({ id: skillId, version: 2, description: 'Release notes, by area' });
    const archived = await unwrap(as('operator').POST('/skills/{skillId}/archive', { params: { path: { skillId } }, body: {} }));
    expect(archived.archivedAt).not.toBeNull();
    expect((await unwrap(as('viewer').GET('/skills'))).map((s) => s.id)).not.toContain(skillId);
    expect((await unwrap(as('viewer').GET('/skills', { params: { query: { archived: 'true' } } }))).map((s) => s.id)).toContain(skillId);
    const restored = await unwrap(as('operator').POST('/skills/{skillId}/archive', { params: { path: { skillId } }, body: { archived: false } }));
    expect(restored.archivedAt).toBeNull();
  });
});

describe('schedules', () => {
  it('create, list, read with its ticks, change, pause, resume, run now and delete', async () => {
    const created = await unwrap(
      as('operator').POST('/schedules', {
        body: {
          name: 'weekday-triage',
          agentId: rest.tb.agent.agentId,
          cron: '0 6 * * 1-5',
          timezone: 'Europe/Berlin',
          goal: 'Triage at {{scheduledAt}}',
          overlap: 'skip',
          catchUp: 'latest',
          enabled: true,
          pauseAfterFailures: 3,
        },
      }),
    );
    expect(created).toMatchObject({ name: 'weekday-triage', enabled: true, overlap: 'skip', catchUp: 'latest' });
    const scheduleId = created.id;
    expect((await unwrap(as('viewer').GET('/schedules'))).map((s) => s.id)).toContain(scheduleId);
    const read = await unwrap(as('viewer').GET('/schedules/{scheduleId}', { params: { path: { scheduleId }, query: { ticks: 10 } } }));
    expect(read).toMatchObject({ id: scheduleId, ticks: [] });
    const changed = await unwrap(
      as('operator').PATCH('/schedules/{scheduleId}', { params: { path: { scheduleId } }, body: { cron: null, everySeconds: 3600 } }),
    );
    expect(changed).toMatchObject({ cron: null, everySeconds: 3600 });
    expect(await unwrap(as('operator').POST('/schedules/{scheduleId}/pause', { params: { path: { scheduleId } } }))).toMatchObject({
      enabled: false,
      nextFireAt: null,
    });
    expect((await unwrap(as('operator').POST('/schedules/{scheduleId}/resume', { params: { path: { scheduleId } } }))).enabled).toBe(true);
    const { runId } = await unwrap(as('operator').POST('/schedules/{scheduleId}/run', { params: { path: { scheduleId } } }));
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: runId } })).scheduleId).toBe(scheduleId);
    expect(await unwrap(as('operator').DELETE('/schedules/{scheduleId}', { params: { path: { scheduleId } } }))).toEqual({ id: scheduleId, deleted: true });
  });
});

describe('triggers', () => {
  it('create (the secret once), list, read, change, rotate the secret, list deliveries, delete', async () => {
    const created = await unwrap(
      as('admin').POST('/triggers', {
        body: {
          name: 'purchasing-inbox',
          target: {
            type: 'start_run',
            agentId: rest.tb.agent.agentId,
            goalTemplate: 'Draft a quote for {{payload.mail.subject}}',
            budget: { tokens: 5000, onExceed: 'wait' },
          },
          auth: 'standard_webhooks',
          rateLimitPerMinute: 600,
          enabled: true,
        },
      }),
    );
    expect(created.secret).toMatch(/^whsec_/);
    const triggerId = created.trigger.id;
    expect(created.trigger).toMatchObject({ path: `/api/hooks/${triggerId}`, auth: 'standard_webhooks', enabled: true });
    expect((await unwrap(as('viewer').GET('/triggers'))).map((t) => t.id)).toContain(triggerId);
    expect(await unwrap(as('viewer').GET('/triggers/{triggerId}', { params: { path: { triggerId } } }))).toEqual(created.trigger);
    const changed = await unwrap(
      as('admin').PATCH('/triggers/{triggerId}', { params: { path: { triggerId } }, body: { rateLimitPerMinute: 30, workspace: null, enabled: false } }),
    );
    expect(changed).toMatchObject({ rateLimitPerMinute: 30, enabled: false });
    const rotated = await unwrap(as('admin').POST('/triggers/{triggerId}/rotate-secret', { params: { path: { triggerId } } }));
    expect(rotated.secret).not.toBe(created.secret);
    // A refused delivery, as the public hook records it (the contract server does not serve /api/hooks).
    await rest.tb.db.triggerDelivery.create({ data: { triggerId, status: 409, accepted: false, reason: 'The trigger is disabled', bytes: 2 } });
    const page = await unwrap(as('viewer').GET('/triggers/{triggerId}/deliveries', { params: { path: { triggerId }, query: { limit: 10 } } }));
    expect(page).toMatchObject({ items: [{ status: 409, accepted: false, runId: null, webhookId: null }], nextCursor: null });
    expect(await unwrap(as('admin').DELETE('/triggers/{triggerId}', { params: { path: { triggerId } } }))).toEqual({ id: triggerId, deleted: true });
  });
});

describe('uploads', () => {
  it('an archive as a form and as raw bytes, and its metadata', async () => {
    const archive = new Uint8Array(craftedTar([{ name: 'src/app.ts', content: 'export {};\n' }]));
    const form = new FormData();
    form.append('file', new Blob([archive]), 'seed.tar');
    const created = await unwrap(as('operator').POST('/uploads', { body: form as never }));
    expect(created).toMatchObject({ filename: 'seed.tar', format: 'tar', bytes: archive.length, files: 2 });
    const raw = await unwrap(
      as('operator').POST('/uploads', {
        params: { query: { filename: 'raw.tar' } },
        body: archive as never,
        bodySerializer: (body) => body as never,
        headers: { 'content-type': 'application/x-tar' },
      }),
    );
    expect(raw.filename).toBe('raw.tar');
    const helper = await uploadArchive(as('operator'), archive, 'helper.tar');
    expect(helper).toMatchObject({ filename: 'helper.tar', format: 'tar', bytes: archive.length });
    const fromUpload = await unwrap(
      as('operator').POST('/runs', {
        body: { agentId: rest.tb.agent.agentId, goal: 'Start from the upload', workspace: { archive: { uploadId: helper.id } } },
      }),
    );
    expect((await rest.tb.db.run.findUniqueOrThrow({ where: { id: fromUpload.runId } })).workspace).toEqual({ archive: { uploadId: helper.id } });
    expect(await unwrap(as('viewer').GET('/uploads/{uploadId}', { params: { path: { uploadId: created.id } } }))).toEqual(created);
  });
});

describe('errors', () => {
  /** The call's status and its problem, as the client hands it to a caller. */
  const problemOf = async (call: Promise<{ error?: unknown; response: Response }>) => {
    const { error, response } = await call;
    return ProblemError.of(response, error);
  };

  it('answers each documented problem status with problem+json, the server’s words in detail', async () => {
    const run = await fixtures.run('contract: errors');
    const running = await fixtures.startedSession();

    const bad = await problemOf(as('viewer').GET('/runs/{runId}/events', { params: { path: { runId: run.runId }, query: { limit: 0 } } }));
    expect(bad).toMatchObject({ status: 400, problem: { code: 'BAD_REQUEST', errors: [{ in: 'query', path: 'limit' }] } });

    const stranger = createLooplaneClient({ url: servers.url, token: 'llp_not-a-token', fetch: recordingFetch(exchanges) });
    await expect(unwrap(stranger.GET('/me'))).rejects.toMatchObject({
      name: 'ProblemError',
      status: 401,
      message: 'The API token is invalid, revoked or expired',
    });

    const forbidden = await problemOf(as('viewer').POST('/runs', { body: { agentId: rest.tb.agent.agentId, goal: 'not allowed' } }));
    expect(forbidden).toMatchObject({ status: 403, message: 'This action needs the operator role; you are viewer' });

    expect(await problemOf(as('viewer').GET('/runs/{runId}', { params: { path: { runId: 'cnosuchrun000' } } }))).toMatchObject({
      status: 404,
      problem: { code: 'NOT_FOUND' },
    });

    await unwrap(as('admin').POST('/mcp-servers', { body: { name: 'taken', transport: 'stdio', command: 'x' } }));
    expect(await problemOf(as('admin').POST('/mcp-servers', { body: { name: 'taken', transport: 'stdio', command: 'x' } }))).toMatchObject({
      status: 409,
      problem: { code: 'CONFLICT' },
    });

    const notFinished = await problemOf(
      as('operator').POST('/sessions/{sessionId}/resume', { params: { path: { sessionId: running.sessionId } }, body: { message: 'go on' } }),
    );
    expect(notFinished).toMatchObject({ status: 412, problem: { code: 'PRECONDITION_FAILED' } });
    expect(notFinished.message).toContain('only a finished, failed or cancelled branch can be resumed');

    const huge = await problemOf(as('operator').POST('/runs', { body: { agentId: rest.tb.agent.agentId, goal: 'x'.repeat(1024 * 1024) } }));
    expect(huge.status).toBe(413);

    const text = await problemOf(as('operator').POST('/tokens', { body: { name: 'x', role: 'viewer' }, headers: { 'content-type': 'text/plain' } }));
    expect(text).toMatchObject({ status: 415, problem: { code: 'UNSUPPORTED_MEDIA_TYPE' } });

    const invalid = await problemOf(as('operator').POST('/runs', { body: { goal: 'which agent?' } }));
    expect(invalid).toMatchObject({ status: 422, problem: { code: 'UNPROCESSABLE_CONTENT', errors: [{ in: 'body', path: 'agentId' }] } });

    // A server that admits one start a minute: the team started more than that already.
    const limited = await as('operator', servers.limitedUrl).POST('/runs', { body: { agentId: rest.tb.agent.agentId, goal: 'one too many' } });
    expect(limited.response.status).toBe(429);
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('checks bodies for real: a missing field, an extra field or a wrong type fails', () => {
    const getRun = operations.find((o) => o.operationId === 'getRun')!;
    const revoked = operations.find((o) => o.operationId === 'revokeToken')!;
    expect(check(getRun, 200, 'application/json', { id: 'x' }).length).toBeGreaterThan(0);
    expect(check(revoked, 200, 'application/json', { id: 'x', revokedAt: '2026-12-02T07:00:00.000Z' })).toEqual([]);
    expect(check(revoked, 200, 'application/json', { id: 'x', revokedAt: '2026-12-02T07:00:00.000Z', extra: 1 }).length).toBeGreaterThan(0);
    expect(check(revoked, 200, 'application/json', { id: 'x', revokedAt: 'yesterday' }).length).toBeGreaterThan(0);
    expect(check(revoked, 201, 'application/json', { id: 'x', revokedAt: '2026-12-02T07:00:00.000Z' })).toEqual([
      expect.stringContaining('status 201 is not documented'),
    ]);
    expect(check(revoked, 404, 'application/json', {})).toEqual([expect.stringContaining('content type application/json is not documented')]);
  });
});

describe('the contract', () => {
  it('every body the server sent is the document’s schema for its operation and status', () => {
    const unmatched = exchanges.filter((e) => !operationFor(operations, e.method, e.path)).map((e) => `${e.method} ${e.path}`);
    expect(unmatched).toEqual([]);
    const wrong = exchanges.flatMap((e) => check(operationFor(operations, e.method, e.path)!, e.status, e.contentType, e.body));
    expect(wrong).toEqual([]);
  });

  it('called every operation of the document with a documented success', () => {
    const succeeded = new Set(exchanges.filter((e) => e.status >= 200 && e.status < 300).map((e) => operationFor(operations, e.method, e.path)?.operationId));
    const missing = operations.filter((o) => !succeeded.has(o.operationId)).map((o) => `${o.method} ${o.path} (${o.operationId})`);
    expect(missing, 'call each of these in this file').toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(28);
  });

  it('saw every problem status the document names', () => {
    const documented = new Set(operations.flatMap((o) => Object.keys(o.responses).filter((s) => Number(s) >= 400)));
    const seen = new Set(exchanges.filter((e) => e.contentType === 'application/problem+json').map((e) => String(e.status)));
    expect([...documented].filter((s) => !seen.has(s)).sort()).toEqual([]);
  });
});
