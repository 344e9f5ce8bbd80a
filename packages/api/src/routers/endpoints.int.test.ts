import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '@looplane/db';
import { parseAddressAllowlist } from '@looplane/shared/net';
import { startChatServer, type ChatServer } from '@looplane/models/testing';
import { createAgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const KEY = 'sk-live-abcdefghijklmnop-WXYZ';
const box = new SecretBox(randomBytes(32).toString('base64'));
// A real HTTP server speaking Chat Completions: first a success, then a provider error.
const server: ChatServer = await startChatServer([
  { text: 'ok', usage: { prompt_tokens: 9, completion_tokens: 1 } },
  { status: 401, message: `Incorrect API key provided: ${KEY}` },
]);
// It listens on loopback, which model endpoints may reach only when the instance allows it.
const tb = apiTestbed({ deps: { secretBox: box, endpointsAllow: parseAddressAllowlist(`127.0.0.1:${server.port}`) } });

/** Everything stored about the team outside the endpoint row itself, to prove the key is nowhere. */
async function storedElsewhere(): Promise<string> {
  const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId } });
  const events = await tb.db.event.findMany({ where: { run: { teamId: tb.fx.teamId } } });
  return JSON.stringify({ audit, events }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

afterAll(async () => {
  await server.close();
});

describe('endpoints', () => {
  let endpointId: string;

  it('creates an OpenAI-compatible endpoint with its key sealed, returning only the last 4 characters', async () => {
    const created = await (await tb.as('admin')).endpoints.create({
      teamId: tb.fx.teamId,
      name: 'local',
      kind: 'openai',
      baseUrl: server.baseURL,
      apiKey: KEY,
      model: 'tiny-1',
      inputMicrosPerMTok: 150_000,
      outputMicrosPerMTok: 600_000,
      contextWindow: 16_000,
      maxOutputTokens: 512,
    });
    endpointId = created.id;
    expect(created).toMatchObject({ name: 'local', kind: 'openai', hasKey: true, keyLast4: 'WXYZ', inputMicrosPerMTok: 150_000, contextWindow: 16_000 });
    expect(JSON.stringify(created)).not.toContain(KEY.slice(0, 12));
    const row = await tb.db.modelEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(row.keyCiphertext).toMatch(/^v1\./);
    expect(row.keyCiphertext).not.toContain(KEY);
    expect(box.open(row.keyCiphertext!)).toBe(KEY);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'endpoint.created', targetId: endpointId } });
    expect(audit.data).toMatchObject({ name: 'local', kind: 'openai', keyChanged: true });
  });

  it('operators list endpoints without any key material', async () => {
    const listed = await (await tb.as('operator')).endpoints.list({ teamId: tb.fx.teamId });
    expect(listed.map((e) => e.name)).toEqual(['local']);
    expect(listed[0]).not.toHaveProperty('keyCiphertext');
    expect(JSON.stringify(listed)).not.toContain(KEY.slice(0, 12));
    await expect((await tb.as('viewer')).endpoints.list({ teamId: tb.fx.teamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('test makes a one-token call and reports latency, then the provider’s error (key redacted)', async () => {
    const api = await tb.as('admin');
    const ok = await api.endpoints.test({ teamId: tb.fx.teamId, endpointId });
    expect(ok).toMatchObject({ ok: true, model: 'tiny-1', text: 'ok' });
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({ model: 'tiny-1', max_tokens: 1 });

    const failed = await api.endpoints.test({ teamId: tb.fx.teamId, endpointId });
    expect(failed).toMatchObject({ ok: false, error: { status: 401, message: expect.stringContaining('Incorrect API key provided') } });
    expect(JSON.stringify(failed)).not.toContain(KEY);
    expect(server.requests).toHaveLength(2); // no retries for a test call
    expect(await storedElsewhere()).not.toContain(KEY);
  });

  it('a faux endpoint tests offline', async () => {
    const api = await tb.as('admin');
    const faux = await api.endpoints.create({ teamId: tb.fx.teamId, name: 'offline', kind: 'faux', model: 'faux-1' });
    expect(faux).toMatchObject({ hasKey: false, keyLast4: null, baseUrl: null });
    expect(await api.endpoints.test({ teamId: tb.fx.teamId, endpointId: faux.id })).toMatchObject({ ok: true, model: 'faux-1' });
  });

  it('update changes fields and replaces the key; the audit row says the key changed but not what it is', async () => {
    const api = await tb.as('admin');
    const updated = await api.endpoints.update({ teamId: tb.fx.teamId, endpointId, apiKey: 'sk-another-key-0042', maxOutputTokens: 1024 });
    expect(updated).toMatchObject({ keyLast4: '0042', maxOutputTokens: 1024 });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'endpoint.updated' } });
    expect(audit.data).toEqual({ name: 'local', changes: { maxOutputTokens: 1024, keyChanged: true } });
    expect(await storedElsewhere()).not.toContain('sk-another-key');
    await expect(api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses keys without an encryption key, and openai endpoints without a URL or key', async () => {
    const noBox = await tb.as('admin', { ...tb.deps, secretBox: null });
    await expect(
      noBox.endpoints.create({ teamId: tb.fx.teamId, name: 'nokey', kind: 'openai', baseUrl: server.baseURL, apiKey: KEY, model: 'm' }),
    ).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('LOOPLANE_ENCRYPTION_KEY'),
    });
    const api = await tb.as('admin');
    await expect(api.endpoints.create({ teamId: tb.fx.teamId, name: 'nourl', kind: 'openai', apiKey: KEY, model: 'm' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await tb.db.modelEndpoint.count({ where: { teamId: tb.fx.teamId, name: { in: ['nokey', 'nourl'] } } })).toBe(0);
  });

  it('delete refuses while an agent template uses the endpoint, then frees the name', async () => {
    const api = await tb.as('admin');
    const agent = await createAgentFixture(tb.db, tb.fx.teamId, { endpointId, name: 'reviewer' });
    await expect(api.endpoints.delete({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('reviewer'),
    });
    expect((await api.endpoints.list({ teamId: tb.fx.teamId })).map((e) => e.name)).toContain('local');

    await tb.db.agentTemplate.update({ where: { id: agent.agentId }, data: { archivedAt: new Date() } });
    expect(await api.endpoints.delete({ teamId: tb.fx.teamId, endpointId })).toEqual({ id: endpointId, deleted: true });
    const names = (await api.endpoints.list({ teamId: tb.fx.teamId })).map((e) => e.name);
    expect(names).toContain('offline');
    expect(names).not.toContain('local');
    const row = await tb.db.modelEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(row).toMatchObject({ keyCiphertext: null, deletedAt: expect.any(Date) });
    await expect(api.endpoints.test({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await api.endpoints.create({ teamId: tb.fx.teamId, name: 'local', kind: 'faux', model: 'faux-1' });
    const actions = (await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, targetType: 'endpoint' }, orderBy: { seq: 'asc' } })).map((r) => r.action);
    expect(actions).toEqual([
      'endpoint.created',
      'endpoint.tested',
      'endpoint.tested',
      'endpoint.created',
      'endpoint.tested',
      'endpoint.updated',
      'endpoint.deleted',
      'endpoint.created',
    ]);
  });
});
