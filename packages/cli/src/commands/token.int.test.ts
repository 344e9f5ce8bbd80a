import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiToken } from '@looplane/db';
import type { TestDatabase } from '@looplane/testkit';
import { callerAs, issueToken, type AgentFixture, type ServedApi, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { startServedApi, type ServedApiFixture } from '../testing/served-api';

/**
 * `looplane token`, `approve`/`reject` and `mcp` as scripts use them: the real binary as a child
 * process against a real API (Postgres, Redis), checking stdout, stderr, exit codes and the rows.
 */
const bin = fileURLToPath(new URL('../../bin/looplane.mjs', import.meta.url));
let db: TestDatabase;
let live: TestLive;
let server: ServedApi;
let fx: TeamFixture;
let agent: AgentFixture;
const tokens = {} as Record<'viewer' | 'operator' | 'approver' | 'admin', string>;

function looplane(args: string[], token: string | null) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOOPLANE_URL: server.url };
    if (token) env.LOOPLANE_TOKEN = token;
    const child = spawn(process.execPath, [bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A pending approval on a run started by the operator, as the worker opens it. */
async function pendingApproval(): Promise<string> {
  const api = await callerAs({ db: db.db, dispatch: live.dispatch }, { bearer: tokens.operator });
  const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'clean up' });
  const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
  await db.db.session.update({ where: { id: run.mainSessionId! }, data: { status: 'waiting', waitReason: 'approval' } });
  const row = await db.db.approval.create({
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
  return row.id;
}

let served: ServedApiFixture;
beforeAll(async () => {
  served = await startServedApi();
  ({ db, live, server, fx, agent } = served);
  for (const role of ['viewer', 'operator', 'approver', 'admin'] as const)
    tokens[role] = (await issueToken(db.db, fx.teamId, fx.members[role].id, role)).secret;
});
afterAll(async () => {
  await served?.close();
});

describe('looplane --help', () => {
  it('documents every command, --json and the exit codes', async () => {
    const { code, stdout } = await looplane(['--help'], null);
    expect(code).toBe(0);
    for (const name of ['run', 'tail', 'fork', 'approve', 'reject', 'audit', 'token', 'mcp']) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(stdout).toContain('--json');
    expect(stdout).toMatch(/0 {2}success[\s\S]*1 {2}failure[\s\S]*2 {2}wrong usage/);
  });
});

describe('looplane token', () => {
  it('creates a token whose secret works, lists it as JSON, revokes it', async () => {
    const created = await looplane(['token', 'create', '--name', 'ci', '--role', 'viewer', '--json'], tokens.operator);
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout) as { id: string; token: string; role: string };
    expect(token.role).toBe('viewer');
    expect(await db.db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).toMatchObject({ tokenHash: hashApiToken(token.token), name: 'ci' });

    const listed = await looplane(['token', 'list', '--json'], token.token);
    expect(listed.code).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);

    const revoked = await looplane(['token', 'revoke', token.id], tokens.operator);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked token ${token.id}.\n` });
    const after = await looplane(['token', 'list'], token.token);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/^error: .*401/);
  });

  it('exits 2 for wrong usage and 1 when the server refuses, writing nothing', async () => {
    const before = await db.db.apiToken.count();
    expect((await looplane(['token', 'create', '--name', 'x', '--role', 'boss'], tokens.admin)).code).toBe(2);
    expect((await looplane(['token', 'mint'], tokens.admin)).code).toBe(2);
    expect((await looplane(['token', 'list'], null)).code).toBe(2);
    const refused = await looplane(['token', 'create', '--name', 'x', '--role', 'admin'], tokens.viewer);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*operator/);
    expect(await db.db.apiToken.count()).toBe(before);
  });
});

describe('looplane approve / reject', () => {
  it('approves with a comment (JSON), refuses a second decision (exit 1), rejects another', async () => {
    const first = await pendingApproval();
    const approved = await looplane(['approve', first, '--comment', 'ship it', '--json'], tokens.approver);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ approvalId: first, status: 'approved' });
    expect(await db.db.approval.findUniqueOrThrow({ where: { id: first } })).toMatchObject({
      status: 'approved',
      comment: 'ship it',
      decidedById: fx.members.approver.id,
    });

    const again = await looplane(['reject', first], tokens.approver);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: /);
    expect((await db.db.approval.findUniqueOrThrow({ where: { id: first } })).status).toBe('approved');

    const second = await pendingApproval();
    const rejected = await looplane(['reject', second, '--comment', 'not now'], tokens.approver);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain(`Rejected ${second}`);
    expect((await db.db.approval.findUniqueOrThrow({ where: { id: second } })).status).toBe('rejected');
  });

  it('needs the approver role and exactly one id', async () => {
    const id = await pendingApproval();
    const refused = await looplane(['approve', id], tokens.operator);
    expect(refused.code).toBe(1);
    expect((await db.db.approval.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    expect((await looplane(['approve'], tokens.approver)).code).toBe(2);
  });
});

describe('looplane mcp', () => {
  it('adds a stdio and an http server, lists them (JSON and text), removes one by name', async () => {
    const added = await looplane(['mcp', 'add', 'files', '--command', 'mcp-server-filesystem', '--arg', '/workspace', '--json'], tokens.admin);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'] });
    expect((await looplane(['mcp', 'add', 'docs', '--url', 'https://mcp.example.test/mcp'], tokens.admin)).code).toBe(0);

    const listed = await looplane(['mcp', 'list', '--json'], tokens.viewer);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((s) => s.name)).toEqual(['docs', 'files']);
    const text = await looplane(['mcp', 'list'], tokens.viewer);
    expect(text.stdout).toContain('files  stdio  mcp-server-filesystem /workspace  (waiting for a worker to list its tools)');
    expect((await looplane(['mcp', 'refresh', 'files', '--json'], tokens.admin)).code).toBe(0);

    expect((await looplane(['mcp', 'remove', 'docs'], tokens.admin)).code).toBe(0);
    expect((await db.db.mcpServer.findMany({ where: { teamId: fx.teamId } })).map((s) => s.name)).toEqual(['files']);
  });

  it('exits 2 for a server with both or neither of --command/--url, 1 for a taken name or a non-admin', async () => {
    const before = await db.db.mcpServer.count();
    expect((await looplane(['mcp', 'add', 'x'], tokens.admin)).code).toBe(2);
    expect((await looplane(['mcp', 'add', 'x', '--command', 'a', '--url', 'http://h.test/'], tokens.admin)).code).toBe(2);
    expect((await looplane(['mcp', 'add', 'files', '--command', 'again'], tokens.admin)).code).toBe(1);
    expect((await looplane(['mcp', 'add', 'ops', '--command', 'x'], tokens.operator)).code).toBe(1);
    expect(await db.db.mcpServer.count()).toBe(before);
  });
});

describe('looplane audit export', () => {
  it('writes the chain for an admin (which audit verify accepts), refuses others', async () => {
    // At least one audited change, so the chain has rows to check.
    const api = await callerAs({ db: db.db, dispatch: live.dispatch }, { bearer: tokens.admin });
    await api.mcp.add({ teamId: fx.teamId, name: 'audited', transport: 'stdio', command: 'true' });
    const dir = await mkdtemp(join(tmpdir(), 'looplane-audit-'));
    try {
      const file = join(dir, 'audit.jsonl');
      const exported = await looplane(['audit', 'export', '--out', file, '--json'], tokens.admin);
      expect(exported.code).toBe(0);
      const summary = JSON.parse(exported.stdout) as { file: string; rows: number; headHash: string };
      expect(summary.file).toBe(file);
      expect(summary.rows).toBeGreaterThan(0);
      expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(summary.rows + 1);
      const verified = await looplane(['audit', 'verify', file, '--json'], null);
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, rows: summary.rows, headHash: summary.headHash });

      const refused = await looplane(['audit', 'export', '--out', join(dir, 'no.jsonl')], tokens.operator);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: .*admin/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
