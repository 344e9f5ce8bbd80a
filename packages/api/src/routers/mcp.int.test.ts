import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { ApiDeps } from '../context';
import { callerAs, createTeamFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
const admin = () => callerAs(deps, { userId: fx.members.admin.id });

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('mcp servers', () => {
  it('adds a stdio and an http server, lists them by name, removes one; each change is audited', async () => {
    const api = await admin();
    const files = await api.mcp.add({ teamId: fx.teamId, name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'] });
    expect(files).toMatchObject({ name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'], url: null });
    const docs = await api.mcp.add({ teamId: fx.teamId, name: 'docs', transport: 'http', url: 'https://mcp.example.test/mcp' });
    expect((await api.mcp.list({ teamId: fx.teamId })).map((s) => s.name)).toEqual(['docs', 'files']);
    expect(await (await callerAs(deps, { userId: fx.outsider.id })).mcp.list({ teamId: fx.otherTeamId })).toEqual([]);

    await api.mcp.remove({ teamId: fx.teamId, serverId: docs.id });
    expect((await api.mcp.list({ teamId: fx.teamId })).map((s) => s.name)).toEqual(['files']);
    const audit = await db.db.auditLog.findMany({ where: { teamId: fx.teamId, targetType: 'mcp_server' }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => [a.action, a.targetId])).toEqual([
      ['mcp_server.added', files.id],
      ['mcp_server.added', docs.id],
      ['mcp_server.removed', docs.id],
    ]);
    expect(audit[0]!.data).toMatchObject({ name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'] });
  });

  it('shows what a worker listed, and refresh asks for a new listing (audited)', async () => {
    const api = await admin();
    const server = await api.mcp.add({ teamId: fx.teamId, name: 'listed', transport: 'stdio', command: 'mcp-x' });
    expect(server).toMatchObject({ tools: [], toolsCheckedAt: null, toolsError: null });
    // What a worker records after listing the server.
    await db.db.mcpServer.update({ where: { id: server.id }, data: { tools: [{ name: 'read' }, { name: 'write' }], toolsCheckedAt: new Date() } });
    expect((await api.mcp.list({ teamId: fx.teamId })).find((s) => s.id === server.id)).toMatchObject({ tools: ['read', 'write'] });
    const refreshed = await api.mcp.refresh({ teamId: fx.teamId, serverId: server.id });
    expect(refreshed.toolsCheckedAt).toBeNull();
    expect(await db.db.auditLog.count({ where: { action: 'mcp_server.refreshed', targetId: server.id } })).toBe(1);
  });

  it('refuses a taken name, a stdio server without a command and an http server with one, changing nothing', async () => {
    const api = await admin();
    const before = await db.db.mcpServer.count();
    await expect(api.mcp.add({ teamId: fx.teamId, name: 'files', transport: 'stdio', command: 'x' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api.mcp.add({ teamId: fx.teamId, name: 'nocmd', transport: 'stdio' })).rejects.toThrow(/command/);
    await expect(api.mcp.add({ teamId: fx.teamId, name: 'both', transport: 'http', url: 'http://x.test/mcp', command: 'x' })).rejects.toThrow(/url, not a command/);
    await expect(api.mcp.add({ teamId: fx.teamId, name: 'Bad Name', transport: 'stdio', command: 'x' })).rejects.toThrow(/lowercase/);
    await expect(api.mcp.add({ teamId: fx.teamId, name: 'ftp', transport: 'http', url: 'ftp://x.test/' })).rejects.toThrow(/http\(s\) URL/);
    expect(await db.db.mcpServer.count()).toBe(before);
  });

  it('lets only admins change the registry, and never another team’s', async () => {
    const operator = await callerAs(deps, { userId: fx.members.operator.id });
    await expect(operator.mcp.add({ teamId: fx.teamId, name: 'ops', transport: 'stdio', command: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const foreign = await db.db.mcpServer.create({ data: { teamId: fx.otherTeamId, name: 'theirs', transport: 'stdio', command: 'x' } });
    await expect((await admin()).mcp.remove({ teamId: fx.teamId, serverId: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db.db.mcpServer.findUnique({ where: { id: foreign.id } })).not.toBeNull();
  });
});
