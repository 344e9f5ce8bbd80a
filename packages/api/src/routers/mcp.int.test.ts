import { describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed();
const admin = () => tb.as('admin');

describe('mcp servers', () => {
  it('adds a stdio and an http server, lists them by name, removes one; each change is audited', async () => {
    const api = await admin();
    const files = await api.mcp.add({ teamId: tb.fx.teamId, name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'] });
    expect(files).toMatchObject({ name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'], url: null });
    const docs = await api.mcp.add({ teamId: tb.fx.teamId, name: 'docs', transport: 'http', url: 'https://mcp.example.test/mcp' });
    expect((await api.mcp.list({ teamId: tb.fx.teamId })).map((s) => s.name)).toEqual(['docs', 'files']);
    expect(await (await tb.asUser(tb.fx.outsider.id)).mcp.list({ teamId: tb.fx.otherTeamId })).toEqual([]);

    await api.mcp.remove({ teamId: tb.fx.teamId, serverId: docs.id });
    expect((await api.mcp.list({ teamId: tb.fx.teamId })).map((s) => s.name)).toEqual(['files']);
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, targetType: 'mcp_server' }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => [a.action, a.targetId])).toEqual([
      ['mcp_server.added', files.id],
      ['mcp_server.added', docs.id],
      ['mcp_server.removed', docs.id],
    ]);
    expect(audit[0]!.data).toMatchObject({ name: 'files', transport: 'stdio', command: 'mcp-server-filesystem', args: ['/workspace'] });
  });

  it('shows what a worker listed, and refresh asks for a new listing (audited)', async () => {
    const api = await admin();
    const server = await api.mcp.add({ teamId: tb.fx.teamId, name: 'listed', transport: 'stdio', command: 'mcp-x' });
    expect(server).toMatchObject({ tools: [], toolsCheckedAt: null, toolsError: null });
    // What a worker records after listing the server.
    await tb.db.mcpServer.update({ where: { id: server.id }, data: { tools: [{ name: 'read' }, { name: 'write' }], toolsCheckedAt: new Date() } });
    expect((await api.mcp.list({ teamId: tb.fx.teamId })).find((s) => s.id === server.id)).toMatchObject({ tools: ['read', 'write'] });
    const refreshed = await api.mcp.refresh({ teamId: tb.fx.teamId, serverId: server.id });
    expect(refreshed.toolsCheckedAt).toBeNull();
    expect(await tb.db.auditLog.count({ where: { action: 'mcp_server.refreshed', targetId: server.id } })).toBe(1);
  });

  it('refuses a taken name, a stdio server without a command and an http server with one, changing nothing', async () => {
    const api = await admin();
    const before = await tb.db.mcpServer.count();
    await expect(api.mcp.add({ teamId: tb.fx.teamId, name: 'files', transport: 'stdio', command: 'x' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api.mcp.add({ teamId: tb.fx.teamId, name: 'nocmd', transport: 'stdio' })).rejects.toThrow(/command/);
    await expect(api.mcp.add({ teamId: tb.fx.teamId, name: 'both', transport: 'http', url: 'http://x.test/mcp', command: 'x' })).rejects.toThrow(
      /url, not a command/,
    );
    await expect(api.mcp.add({ teamId: tb.fx.teamId, name: 'Bad Name', transport: 'stdio', command: 'x' })).rejects.toThrow(/lowercase/);
    await expect(api.mcp.add({ teamId: tb.fx.teamId, name: 'ftp', transport: 'http', url: 'ftp://x.test/' })).rejects.toThrow(/http\(s\) URL/);
    expect(await tb.db.mcpServer.count()).toBe(before);
  });

  it('lets only admins change the registry, and never another team’s', async () => {
    const operator = await tb.as('operator');
    await expect(operator.mcp.add({ teamId: tb.fx.teamId, name: 'ops', transport: 'stdio', command: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const foreign = await tb.db.mcpServer.create({ data: { teamId: tb.fx.otherTeamId, name: 'theirs', transport: 'stdio', command: 'x' } });
    await expect((await admin()).mcp.remove({ teamId: tb.fx.teamId, serverId: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await tb.db.mcpServer.findUnique({ where: { id: foreign.id } })).not.toBeNull();
  });
});
