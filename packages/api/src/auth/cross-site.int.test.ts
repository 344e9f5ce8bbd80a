import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { handleTrpcRequest } from '../http';
import { issueToken, sessionOf } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed();

/** `teams.create` as a page would send it: with the admin's session cookie, from `origin`. */
function createTeam(slug: string, headers: Record<string, string>, withCookie = true) {
  const request = new Request('http://looplane.test/api/trpc/teams.create', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(superjson.serialize({ name: slug, slug })),
  });
  return handleTrpcRequest(request, { deps: tb.deps, endpoint: '/api/trpc', session: withCookie ? sessionOf(tb.fx.members.admin.id) : null, ip: null });
}

describe('cookie-authenticated mutations from another site', () => {
  it('are refused with 403 and a clear message, and change nothing', async () => {
    const before = await tb.db.team.count();
    const forgeries: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const headers of forgeries) {
      const response = await createTeam(`forged-${before}`, headers);
      expect(response.status).toBe(403);
      const body = (await response.json()) as { error: { json: { message: string; data: { code: string } } } };
      expect(body.error.json.data.code).toBe('FORBIDDEN');
      expect(body.error.json.message).toContain('Cross-site request refused');
    }
    expect(await tb.db.team.count()).toBe(before);
    expect(await tb.db.auditLog.count({ where: { action: 'team.created', data: { path: ['slug'], equals: `forged-${before}` } } })).toBe(0);
  });

  it('from the dashboard’s own origin, or by a non-browser client, go through', async () => {
    expect((await createTeam('own-origin', { origin: 'http://looplane.test', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await createTeam('no-browser', {})).status).toBe(200);
  });

  it('Bearer requests are exempt: a token is never ambient', async () => {
    const token = await issueToken(tb.db, tb.fx.teamId, tb.fx.members.admin.id, 'operator');
    const request = new Request('http://looplane.test/api/trpc/tokens.create', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://automation.example',
        'sec-fetch-site': 'cross-site',
        authorization: `Bearer ${token.secret}`,
      },
      body: JSON.stringify(superjson.serialize({ teamId: tb.fx.teamId, name: 'from-ci', role: 'viewer' })),
    });
    expect((await handleTrpcRequest(request, { deps: tb.deps, endpoint: '/api/trpc', session: null, ip: null })).status).toBe(200);
  });
});
