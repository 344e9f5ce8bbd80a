import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createAgentFixture, createTeamFixture, createTestLive, issueToken, type AgentFixture, type TeamFixture, type TestLive } from '../testing';
import { handleMcpRequest } from './mcp-http';

let db: TestDatabase;
let live: TestLive;
let fx: TeamFixture;
let agent: AgentFixture;
let server: Server;
let url: string;

/** The same handler the Next route calls, on a plain Node server at /api/mcp. */
async function serveMcp(): Promise<void> {
  server = createServer((req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), {
      method: req.method ?? 'GET',
      headers: req.headers as Record<string, string>,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    void handleMcpRequest(request, { deps: { db: db.db, dispatch: live.dispatch }, ip: '127.0.0.1' }).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
}

async function connect(token: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'looplane-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url + query), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('');
}

async function rawPost(headers: Record<string, string>, query = ''): Promise<Response> {
  return fetch(url + query, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
  await serveMcp();
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await live?.close();
  await db?.drop();
});

describe('/api/mcp authentication', () => {
  it('rejects a request without a token (401 with a Bearer challenge)', async () => {
    const response = await rawPost({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    await expect(connect('')).rejects.toThrow();
  });

  it('rejects an unknown or revoked token (401)', async () => {
    expect((await rawPost({ authorization: 'Bearer llp_not-a-real-token' })).status).toBe(401);
    const revoked = await issueToken(db.db, fx.teamId, fx.members.admin.id, 'admin');
    await db.db.apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    expect((await rawPost({ authorization: `Bearer ${revoked.secret}` })).status).toBe(401);
    await expect(connect('llp_not-a-real-token')).rejects.toThrow(/401|invalid/i);
  });

  it('refuses a token of another team (403) and never shows that team’s runs', async () => {
    const foreign = await issueToken(db.db, fx.otherTeamId, fx.outsider.id, 'admin');
    expect((await rawPost({ authorization: `Bearer ${foreign.secret}` }, `?teamId=${fx.teamId}`)).status).toBe(403);
    const mine = await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator');
    const owner = await connect(mine.secret);
    const started = await owner.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: 'private work' } });
    const runId = (started.structuredContent as { runId: string }).runId;
    await owner.close();

    const outsider = await connect(foreign.secret);
    const read = await outsider.callTool({ name: 'get_run', arguments: { runId } });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/NOT_FOUND/);
    const cancel = await outsider.callTool({ name: 'cancel_run', arguments: { runId } });
    expect(cancel.isError).toBe(true);
    await outsider.close();
    expect((await db.db.run.findUniqueOrThrow({ where: { id: runId } })).status).not.toBe('cancelled');
  });

  it('refuses a token whose owner left the team (403)', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.approver.id, 'approver');
    const leaver = await db.db.membership.findUniqueOrThrow({ where: { teamId_userId: { teamId: fx.teamId, userId: fx.members.approver.id } } });
    await db.db.membership.delete({ where: { id: leaver.id } });
    try {
      expect((await rawPost({ authorization: `Bearer ${token.secret}` })).status).toBe(403);
    } finally {
      await db.db.membership.create({ data: { teamId: fx.teamId, userId: fx.members.approver.id, role: 'approver' } });
    }
  });
});

describe('/api/mcp tools', () => {
  it('lists its tools, starts a run by agent name, reads it, lists it and cancels it', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator');
    const client = await connect(token.secret);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_runs', 'get_run', 'start_run', 'cancel_run', 'read_run_events']));

    const started = await client.callTool({ name: 'start_run', arguments: { agentName: agent.agentName, goal: '/triage the cart is empty' } });
    expect(started.isError).toBeFalsy();
    const runId = (started.structuredContent as { runId: string }).runId;
    const row = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row).toMatchObject({ teamId: fx.teamId, createdByTokenId: token.id, goal: 'Triage this report: the cart is empty' });
    expect((await live.jobs()).map((j) => j.runId)).toContain(runId);

    const got = await client.callTool({ name: 'get_run', arguments: { runId } });
    expect((got.structuredContent as { id: string; status: string }).id).toBe(runId);
    const listed = await client.callTool({ name: 'list_runs', arguments: {} });
    expect(textOf(listed)).toContain(runId);
    const events = await client.callTool({ name: 'read_run_events', arguments: { runId } });
    expect(events.isError).toBeFalsy();

    const cancelled = await client.callTool({ name: 'cancel_run', arguments: { runId } });
    expect(cancelled.isError).toBeFalsy();
    const after = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(after.cancelRequestedAt ?? after.status === 'cancelled').toBeTruthy();
    await client.close();
  });

  it('applies the tRPC role ladder: a viewer token cannot start a run', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.viewer.id, 'viewer');
    const client = await connect(token.secret);
    const before = await db.db.run.count();
    const result = await client.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: 'nope' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/FORBIDDEN.*operator/);
    expect(await db.db.run.count()).toBe(before);
    await client.close();
  });

  it('turns bad input into a clear tool error that changes nothing', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator');
    const client = await connect(token.secret);
    const before = await db.db.run.count();
    const result = await client.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: '   ' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/goal/);
    expect(await db.db.run.count()).toBe(before);
    await client.close();
  });

  it('start_run takes a workspace: another session’s files start the run; a bad one is a tool error that starts nothing', async () => {
    const client = await connect((await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret);
    const first = await client.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: 'the original' } });
    const source = await db.db.run.findUniqueOrThrow({ where: { id: (first.structuredContent as { runId: string }).runId } });
    const started = await client.callTool({
      name: 'start_run',
      arguments: { agentId: agent.agentId, goal: 'go on from there', workspace: { session: { sessionId: source.mainSessionId } } },
    });
    expect(started.isError).toBeFalsy();
    const row = await db.db.run.findUniqueOrThrow({ where: { id: (started.structuredContent as { runId: string }).runId } });
    expect(row.workspace).toEqual({ session: { sessionId: source.mainSessionId }, from: { runId: source.id, commit: null, atEvent: 0 } });

    const before = await db.db.run.count();
    for (const [workspace, error] of [
      [{ git: { url: 'https://me:pw@git.example.test/a.git' } }, /must not hold a password/],
      [{ git: { url: 'https://git.example.test/a.git', depth: 0 } }, /depth/],
      [{ archive: { uploadId: 'cmnosuchupload0000000000' } }, /No upload cmnosuchupload0000000000/],
    ] as const) {
      const result = await client.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: 'refused', workspace } });
      expect(result.isError, JSON.stringify(workspace)).toBe(true);
      expect(textOf(result)).toMatch(error);
    }
    expect(await db.db.run.count()).toBe(before);
    await client.close();
  });

  it('starts a run and approves the tool call its policy holds (list_approvals, decide_approval)', async () => {
    const operator = await connect((await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret);
    const started = await operator.callTool({ name: 'start_run', arguments: { agentId: agent.agentId, goal: 'clean the build' } });
    const runId = (started.structuredContent as { runId: string }).runId;
    await operator.close();
    // What the worker does when the policy holds a call: the session waits on a pending row.
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    await db.db.session.update({ where: { id: run.mainSessionId! }, data: { status: 'waiting', waitReason: 'approval' } });
    const approval = await db.db.approval.create({
      data: {
        teamId: fx.teamId,
        runId,
        sessionId: run.mainSessionId!,
        requestSeq: 3,
        toolCallId: 'call-1',
        tool: 'shell',
        args: { command: 'rm -rf build' },
        requestedById: fx.members.operator.id,
      },
    });

    const viewer = await connect((await issueToken(db.db, fx.teamId, fx.members.viewer.id, 'viewer')).secret);
    const listed = await viewer.callTool({ name: 'list_approvals', arguments: { status: 'pending' } });
    expect(textOf(listed)).toContain(approval.id);
    const refused = await viewer.callTool({ name: 'decide_approval', arguments: { approvalId: approval.id, decision: 'approve' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/FORBIDDEN/);
    await viewer.close();

    const approverToken = await issueToken(db.db, fx.teamId, fx.members.approver.id, 'approver');
    const approver = await connect(approverToken.secret);
    const decided = await approver.callTool({ name: 'decide_approval', arguments: { approvalId: approval.id, decision: 'approve', comment: 'fine' } });
    expect(decided.isError).toBeFalsy();
    expect(decided.structuredContent).toMatchObject({ approvalId: approval.id, status: 'approved', runId });
    await approver.close();
    expect(await db.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({
      status: 'approved',
      decidedById: fx.members.approver.id,
      comment: 'fine',
    });
    const audit = await db.db.auditLog.findFirstOrThrow({ where: { teamId: fx.teamId, action: 'approval.approved', targetId: approval.id } });
    expect(audit).toMatchObject({ actorType: 'token', actorId: approverToken.id });
    expect((await live.jobs()).some((j) => j.runId === runId && j.reason === 'resume')).toBe(true);
  });
});
