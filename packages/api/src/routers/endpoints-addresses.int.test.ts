import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '@looplane/db';
import { startChatServer } from '@looplane/models/testing';
import { parseAddressAllowlist } from '@looplane/shared/net';
import type { ApiDeps } from '../context';
import { apiTestbed } from '../testing/testbed';

/**
 * Where a model endpoint's key and requests may go. A stored key goes only to the base URL it was
 * entered for, and base URLs are held to the address policy (no loopback, link-local or metadata
 * address unless LOOPLANE_ENDPOINTS_ALLOW lists it) when saved, when tested, and at connect time.
 * Real HTTP servers on 127.0.0.1: the provider the key was entered for, and a server of the
 * admin's own choosing that would collect it.
 */
const KEY = 'sk-live-abcdefghijklmnop-WXYZ';
const box = new SecretBox(randomBytes(32).toString('base64'));
const usage = { prompt_tokens: 9, completion_tokens: 1 };
const provider = await startChatServer([{ text: 'ok', usage }]);
const attacker = await startChatServer([{ text: 'thanks', usage }]);
/** LOOPLANE_ENDPOINTS_ALLOW=127.0.0.1:<provider>,127.0.0.1:<attacker>: both addresses are allowed as such. */
const tb = apiTestbed({ deps: { secretBox: box, endpointsAllow: parseAddressAllowlist(`127.0.0.1:${provider.port},127.0.0.1:${attacker.port}`) } });

afterAll(async () => {
  await provider.close();
  await attacker.close();
});

let n = 0;
const admin = (endpointsAllow?: string) =>
  tb.as('admin', { ...tb.deps, ...(endpointsAllow !== undefined ? { endpointsAllow: parseAddressAllowlist(endpointsAllow) } : {}) } satisfies ApiDeps);
const refusal = (address: string, port: number) =>
  `baseUrl: ${address} is a loopback address: model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it (such as ${address}:${port})`;

async function createAtProvider(): Promise<string> {
  const api = await admin();
  const created = await api.endpoints.create({
    teamId: tb.fx.teamId,
    name: `remote-${n++}`,
    kind: 'openai',
    baseUrl: provider.baseURL,
    apiKey: KEY,
    model: 'tiny-1',
  });
  expect(created).toMatchObject({ hasKey: true, keyLast4: 'WXYZ' });
  return created.id;
}

const keysSent = (server: typeof provider) => server.requests.map((r) => r.headers.authorization).filter((value) => value !== undefined);

describe('a stored key goes only where it was entered for', () => {
  it('changing the base URL drops the key; a test against the new URL sends none', async () => {
    const endpointId = await createAtProvider();
    const api = await admin();
    const updated = await api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: attacker.baseURL });
    expect(updated).toMatchObject({ baseUrl: attacker.baseURL, hasKey: false, keyLast4: null, keyDropped: true });
    expect(await tb.db.modelEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({ keyCiphertext: null, keyLast4: null });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'endpoint.updated', targetId: endpointId } });
    expect(audit.data).toEqual({ name: expect.any(String), changes: { baseUrl: attacker.baseURL, keyDropped: true } });

    await expect(api.endpoints.test({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('has no API key (a key is dropped when the base URL changes: enter it again)'),
    });
    expect(keysSent(attacker)).toEqual([]);
    expect(JSON.stringify(attacker.requests)).not.toContain(KEY);
    // Pointing it back does not bring the key back.
    expect(await api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: provider.baseURL })).toMatchObject({ hasKey: false, keyDropped: false });
  });

  it('the same base URL keeps the key; a key given with a new URL is the one stored', async () => {
    const endpointId = await createAtProvider();
    const api = await admin();
    // The dashboard sends the URL back on every save; the same place, however it is spelled, keeps the key.
    const same = provider.baseURL.replace('http://127.0.0.1', 'HTTP://127.0.0.1');
    expect(await api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: same, maxRetries: 1 })).toMatchObject({
      hasKey: true,
      keyLast4: 'WXYZ',
      keyDropped: false,
    });
    const moved = await api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: attacker.baseURL, apiKey: 'sk-own-key-of-theirs-7777' });
    expect(moved).toMatchObject({ hasKey: true, keyLast4: '7777', keyDropped: false });
    const audit = await tb.db.auditLog.findFirstOrThrow({
      where: { teamId: tb.fx.teamId, action: 'endpoint.updated', targetId: endpointId },
      orderBy: { seq: 'desc' },
    });
    expect(audit.data).toEqual({ name: expect.any(String), changes: { baseUrl: attacker.baseURL, keyChanged: true } });
    expect(await api.endpoints.test({ teamId: tb.fx.teamId, endpointId })).toMatchObject({ ok: true });
    expect(keysSent(attacker)).toEqual(['Bearer sk-own-key-of-theirs-7777']);
  });
});

describe('model endpoints do not reach loopback, link-local or metadata addresses', () => {
  it('refuses them at create and update without the allowance, connecting to nothing', async () => {
    const api = await admin('');
    const connections = provider.connections;
    const create = (baseUrl: string) =>
      api.endpoints.create({ teamId: tb.fx.teamId, name: `refused-${n++}`, kind: 'openai', baseUrl, apiKey: KEY, model: 'm' });
    await expect(create(provider.baseURL)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: refusal('127.0.0.1', provider.port) });
    await expect(create('http://169.254.169.254/v1')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^baseUrl: 169\.254\.169\.254 is a link-local address \(a cloud metadata service\)/),
    });
    await expect(create('http://[fd00:ec2::254]/v1')).rejects.toMatchObject({ message: expect.stringMatching(/is a cloud metadata address/) });
    await expect(create(`http://[::ffff:127.0.0.1]:${provider.port}/v1`)).rejects.toMatchObject({
      message: expect.stringMatching(/IPv4-mapped form of a loopback/),
    });
    await expect(create(`http://localhost:${provider.port}/v1`)).rejects.toMatchObject({
      message: expect.stringMatching(/^baseUrl: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/),
    });
    // Private networks are where self-hosted models live: allowed by default.
    await expect(create('http://10.20.30.40:8000/v1')).resolves.toMatchObject({ baseUrl: 'http://10.20.30.40:8000/v1' });

    const endpointId = await createAtProvider();
    await expect(api.endpoints.update({ teamId: tb.fx.teamId, endpointId, baseUrl: 'http://169.254.169.254/latest' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await tb.db.modelEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({ baseUrl: provider.baseURL, keyLast4: 'WXYZ' });
    expect(provider.connections).toBe(connections);
  });

  it('endpoints.test gives a refused address the same refusal, before any connection', async () => {
    const endpointId = await createAtProvider();
    const connections = provider.connections;
    const tested = () => tb.db.auditLog.count({ where: { teamId: tb.fx.teamId, action: 'endpoint.tested', targetId: endpointId } });
    const strict = await admin('');
    await expect(strict.endpoints.test({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: refusal('127.0.0.1', provider.port),
    });
    // A name that resolves to loopback (stored before the policy, or before its DNS changed).
    await tb.db.modelEndpoint.update({ where: { id: endpointId }, data: { baseUrl: `http://localhost:${provider.port}/v1` } });
    await expect(strict.endpoints.test({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^baseUrl: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/),
    });
    await tb.db.modelEndpoint.update({ where: { id: endpointId }, data: { baseUrl: 'http://169.254.169.254/latest/meta-data' } });
    await expect(strict.endpoints.test({ teamId: tb.fx.teamId, endpointId })).rejects.toMatchObject({
      message: expect.stringMatching(/^baseUrl: 169\.254\.169\.254 is a link-local address \(a cloud metadata service\)/),
    });
    expect(provider.connections).toBe(connections);
    expect(await tested()).toBe(0);
  });

  it('LOOPLANE_ENDPOINTS_ALLOW=127.0.0.1:<port> allows that port, and no other', async () => {
    const allowed = await admin(`127.0.0.1:${provider.port}`);
    const created = await allowed.endpoints.create({
      teamId: tb.fx.teamId,
      name: `allowed-${n++}`,
      kind: 'openai',
      baseUrl: provider.baseURL,
      apiKey: KEY,
      model: 'm',
    });
    expect(await allowed.endpoints.test({ teamId: tb.fx.teamId, endpointId: created.id })).toMatchObject({ ok: true, text: 'ok' });
    expect(keysSent(provider).at(-1)).toBe(`Bearer ${KEY}`);
    await expect(allowed.endpoints.update({ teamId: tb.fx.teamId, endpointId: created.id, baseUrl: attacker.baseURL })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: refusal('127.0.0.1', attacker.port),
    });
  });
});
