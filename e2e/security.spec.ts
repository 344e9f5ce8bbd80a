import { request as playwrightRequest, type APIRequestContext, type Browser } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { bearer, trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The web's own defences, over HTTP against the real server and in Chromium: security headers,
 * the CSP the dashboard runs under, cross-site refusal of cookie mutations, sessions that end on
 * the server, the sign-in limit, and which X-Forwarded-For reaches the audit log. The second web
 * (`stack.separateWebURL`) trusts 127.0.0.1 as its reverse proxy; the first trusts no proxy.
 */

interface AuditRow {
  action: string;
  targetId: string | null;
  ip: string | null;
  data: Record<string, unknown>;
}

/** A new person in the demo team with a password of their own (invited, then signed up with the invitation's code). */
async function newMember(request: APIRequestContext, teamId: string): Promise<{ id: string; email: string; password: string }> {
  const email = `${unique('sec')}@example.test`;
  const password = `pass-${unique('pw')}`;
  const invited = await trpcMutation<{ code: string }>(request, 'teams.invite', stack.bootstrapToken, { teamId, email, role: 'viewer' });
  const signedUp = await request.post('/api/trpc/invitations.signUp', { data: { json: { code: invited.code, password } } });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  const members = await trpcQuery<Array<{ userId: string; email: string }>>(request, 'teams.members', stack.bootstrapToken, { teamId });
  return { id: members.find((m) => m.email === email)!.userId, email, password };
}

/** next-auth's credentials sign-in as its client makes it: CSRF token first, then the form post. */
async function credentialsSignIn(api: APIRequestContext, email: string, password: string, headers: Record<string, string> = {}) {
  const { csrfToken } = (await (await api.get('/api/auth/csrf', { headers })).json()) as { csrfToken: string };
  return api.post('/api/auth/callback/credentials', { headers, form: { csrfToken, email, password, json: 'true', callbackUrl: '/' } });
}

async function auditRows(request: APIRequestContext, teamId: string, action: string): Promise<AuditRow[]> {
  return (await trpcQuery<{ rows: AuditRow[] }>(request, 'audit.list', stack.bootstrapToken, { teamId, action, limit: 200 })).rows;
}

async function signedInContext(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

test.describe('security headers', () => {
  test('pages carry a CSP with a fresh nonce on every script, and the static headers; no HSTS over plain http', async ({ request }) => {
    const response = await request.get('/signin');
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'/);
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "connect-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-eval');
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' });
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['strict-transport-security']).toBeUndefined();

    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect((await request.get('/signin')).headers()['content-security-policy']).not.toBe(csp);
  });

  test('API responses carry the static headers and a policy that loads nothing', async ({ request }) => {
    for (const path of ['/api/health', '/api/trpc/me', '/metrics']) {
      const headers = (await request.get(path)).headers();
      expect(headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['permissions-policy'], path).toContain('microphone=()');
    }
  });

  test('HSTS only when a trusted proxy says the client came over https', async ({ request }) => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await request.get('/api/health', { headers: https })).headers()['strict-transport-security']).toBeUndefined();
    const behindProxy = await playwrightRequest.newContext({ baseURL: stack.separateWebURL });
    try {
      expect((await behindProxy.get('/api/health')).headers()['strict-transport-security']).toBeUndefined();
      for (const path of ['/api/health', '/signin']) {
        expect((await behindProxy.get(path, { headers: https })).headers()['strict-transport-security'], path).toBe('max-age=63072000; includeSubDomains');
      }
      expect((await behindProxy.get('/signin', { headers: https })).headers()['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await behindProxy.dispose();
    }
  });
});

test('the dashboard works under its CSP: every page hydrates and nothing is blocked', async ({ page }) => {
  // The page fixture fails the test on any CSP violation Chromium reports.
  for (const path of [
    '',
    '/runs',
    '/runs/new',
    '/agents',
    '/approvals',
    '/graphs',
    '/policies',
    '/endpoints',
    '/costs',
    '/audit',
    '/settings/members',
    '/settings/account',
  ]) {
    await page.goto(`/t/demo${path}`);
    await page.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
  }
  // The inline theme script ran (it carries the nonce): the theme toggle flips what it set.
  const theme = await page.locator('html').getAttribute('data-theme');
  expect(['light', 'dark']).toContain(theme);
});

test.describe('cross-site requests', () => {
  test('a cookie-authenticated mutation from another site gets 403 and changes nothing; the dashboard’s own and Bearer ones go through', async ({
    page,
    request,
    demoTeam,
  }) => {
    const forgedName = unique('forged');
    const forged = await page.request.post('/api/trpc/tokens.create', {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      data: { json: { teamId: demoTeam.id, name: forgedName, role: 'viewer' } },
    });
    expect(forged.status()).toBe(403);
    expect(JSON.stringify(await forged.json())).toContain('Cross-site request refused (from https://evil.example)');
    const tokens = await trpcQuery<Array<{ name: string }>>(request, 'tokens.list', stack.bootstrapToken, { teamId: demoTeam.id });
    expect(tokens.map((t) => t.name)).not.toContain(forgedName);

    const own = await page.request.post('/api/trpc/tokens.create', {
      headers: { origin: new URL(stack.baseURL).origin, 'sec-fetch-site': 'same-origin' },
      data: { json: { teamId: demoTeam.id, name: unique('own-origin'), role: 'viewer' } },
    });
    expect(own.status(), await own.text()).toBe(200);

    const automation = await request.post('/api/trpc/tokens.create', {
      headers: { ...bearer(stack.bootstrapToken), origin: 'https://ci.example' },
      data: { json: { teamId: demoTeam.id, name: unique('bearer'), role: 'viewer' } },
    });
    expect(automation.status(), await automation.text()).toBe(200);
  });
});

test.describe('sessions end on the server', () => {
  test('after sign-out, a copy of the session cookie stops working', async ({ browser, request, demoTeam }) => {
    const member = await newMember(request, demoTeam.id);
    const { context, page } = await signedInContext(browser, member.email, member.password);
    const captured = await context.storageState();
    const replay = await browser.newContext({ baseURL: stack.baseURL, storageState: captured });
    expect((await replay.request.get('/api/trpc/me')).status()).toBe(200);

    await page.getByTestId('signout').click();
    await expect(page).toHaveURL(/\/signin/);
    expect((await replay.request.get('/api/trpc/me')).status()).toBe(401);
    const replayPage = await replay.newPage();
    await replayPage.goto('/t/demo');
    await expect(replayPage).toHaveURL(/\/signin/);
    await replay.close();
    await context.close();
  });

  test('changing the password ends every session, this one too, and is audited', async ({ browser, request, demoTeam }) => {
    const member = await newMember(request, demoTeam.id);
    const { context, page } = await signedInContext(browser, member.email, member.password);
    const otherDevice = await signedInContext(browser, member.email, member.password);
    const captured = await browser.newContext({ baseURL: stack.baseURL, storageState: await context.storageState() });

    await page.goto('/t/demo/settings/account');
    await page.getByTestId('current-password').fill(member.password);
    await page.getByTestId('new-password').fill(`${member.password}-changed`);
    await page.getByTestId('change-password-submit').click();
    await expect(page).toHaveURL(/\/signin/);

    expect((await captured.request.get('/api/trpc/me')).status()).toBe(401);
    expect((await otherDevice.context.request.get('/api/trpc/me')).status()).toBe(401);
    await signIn(page, member.email, `${member.password}-changed`);
    const rows = await auditRows(request, demoTeam.id, 'account.password_changed');
    expect(rows.filter((row) => row.targetId === member.id)).toHaveLength(1);
    await captured.close();
    await otherDevice.context.close();
    await context.close();
  });
});

test.describe('sign-in limit', () => {
  test('wrong passwords lock the account: 429 with Retry-After, the right password refused too, the lockout audited with the client’s address', async ({
    browser,
    request,
    demoTeam,
  }) => {
    const member = await newMember(request, demoTeam.id);
    // Through the second web, whose trusted proxy (127.0.0.1) names a client address of this test's own.
    const client = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const viaProxy = { 'x-forwarded-for': client };
    const api = await playwrightRequest.newContext({ baseURL: stack.separateWebURL });
    try {
      for (let i = 0; i < 4; i++) {
        const refused = await credentialsSignIn(api, member.email, `wrong-${i}-password`, viaProxy);
        expect(refused.status()).not.toBe(429);
        expect((await refused.json()).url).toContain('error=CredentialsSignin');
      }
      const locking = await credentialsSignIn(api, member.email, 'wrong-4-password', viaProxy);
      expect(locking.status()).toBe(429);
      const retryAfter = Number(locking.headers()['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(30);
      expect(await locking.json()).toMatchObject({ message: expect.stringContaining('Too many failed sign-ins') });

      const right = await credentialsSignIn(api, member.email, member.password, viaProxy);
      expect(right.status()).toBe(429);
      expect(right.headers()['retry-after']).toBeTruthy();
    } finally {
      await api.dispose();
    }

    // The account is locked wherever the attempt comes from; the form says so.
    const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByTestId('signin-email').fill(member.email);
    await page.getByTestId('signin-password').fill(member.password);
    await page.getByTestId('signin-password').press('Enter');
    await expect(page.getByTestId('signin-error')).toContainText('Too many failed sign-ins');
    await context.close();

    const rows = (await auditRows(request, demoTeam.id, 'auth.locked_out')).filter((row) => row.targetId === member.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ip).toBe(client);
    expect(rows[0]!.data).toMatchObject({ scopes: ['account'] });
  });
});

test('X-Forwarded-For reaches the audit log only from a trusted proxy', async ({ request, demoTeam }) => {
  const create = async (api: APIRequestContext, name: string) => {
    const response = await api.post('/api/trpc/tokens.create', {
      headers: { ...bearer(stack.bootstrapToken), 'x-forwarded-for': '198.51.100.66', 'x-real-ip': '198.51.100.67' },
      data: { json: { teamId: demoTeam.id, name, role: 'viewer' } },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  const direct = unique('direct');
  await create(request, direct);
  const behindProxy = await playwrightRequest.newContext({ baseURL: stack.separateWebURL });
  const proxied = unique('proxied');
  try {
    await create(behindProxy, proxied);
  } finally {
    await behindProxy.dispose();
  }
  const rows = await auditRows(request, demoTeam.id, 'token.created');
  const ipOf = (name: string) => rows.find((row) => row.data.name === name)?.ip;
  // The first web trusts no proxy: the forged headers are dropped, the socket peer is recorded.
  expect(ipOf(direct)).toBe('127.0.0.1');
  expect(ipOf(proxied)).toBe('198.51.100.66');
});
