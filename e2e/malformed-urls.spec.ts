import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { stack } from './support/stack';
import { bearer } from './support/trpc-api';

/**
 * A request target whose percent-encoding does not decode (`%ZZ`, or `%ED%A0%80`: a UTF-16
 * surrogate, which UTF-8 cannot hold) is the client's mistake: 400 everywhere, as problem+json
 * under /api, never a 500 (issue #33 found 24 of them). Sent with node:http, as fetch and URL
 * would normalise or refuse the paths before they left.
 */

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GET of `target` exactly as written, with `headers`; the body read to its end (or 15 s at most). */
function rawGet(target: string, headers: Record<string, string>): Promise<RawResponse> {
  const base = new URL(stack.baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    // A stream route that answered 200 would never end: give up rather than hang the suite.
    req.setTimeout(15_000, () => req.destroy(new Error(`${target}: no complete answer within 15 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The signed-in admin's cookies, as a Cookie header. */
async function sessionCookie(page: Page): Promise<string> {
  return (await page.context().cookies(stack.baseURL)).map((c) => `${c.name}=${c.value}`).join('; ');
}

const BAD = ['%ED%A0%80', '%ZZ'];

/** Every kind of dynamic route: REST, tRPC (path and input), pages, the run stream, the workspace tarball, the sign-in page. */
function targets(bad: string): string[] {
  return [
    `/api/v1/runs/${bad}`,
    `/api/v1/runs/${bad}/events`,
    `/api/v1/sessions/${bad}/files`,
    `/api/v1/runs?cursor=${bad}`,
    `/api/trpc/runs.get${bad}`,
    `/api/trpc/runs.get?input=${bad}`,
    `/api/runs/${bad}/stream`,
    `/api/sessions/${bad}/workspace.tar.gz`,
    `/api/teams/${bad}/activity`,
    `/t/demo/runs/${bad}`,
    `/t/${bad}/runs`,
    `/t/demo/runs?status=${bad}`,
    `/signin?callbackUrl=${bad}`,
  ];
}

test('malformed percent-encoding anywhere is a 400, as problem+json under /api', async ({ page }) => {
  // Signed in (a token for the API, the admin's cookie for pages), so every route gets past
  // authentication to where it would decode.
  const cookie = await sessionCookie(page);
  for (const bad of BAD) {
    for (const target of targets(bad)) {
      const response = await rawGet(target, target.startsWith('/api/') ? bearer(stack.bootstrapToken) : { cookie });
      expect(response.status, `${target}: ${response.body.slice(0, 300)}`).toBe(400);
      if (target.startsWith('/api/')) {
        expect(response.headers['content-type'], target).toBe('application/problem+json');
        expect(JSON.parse(response.body), target).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'BAD_REQUEST' });
      }
      expect(response.body, target).toContain('Malformed percent-encoding');
      expect(response.headers['x-content-type-options'], target).toBe('nosniff');
    }
  }
});

test('a newline or carriage return in the sign-in callbackUrl is never a 500', async ({ page }) => {
  const cookie = await sessionCookie(page);
  for (const value of ['%0A', '%0D', '%2F%0A%2Fevil.example', '%2F%0D%0ALocation%3A%20https%3A%2F%2Fevil.example']) {
    for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
      const response = await rawGet(`/signin?callbackUrl=${value}`, headers);
      expect(response.status, `${value} ${headers.cookie ? 'signed in' : 'signed out'}`).toBeLessThan(500);
      if (response.status === 307) expect(response.headers.location).toBe('/');
    }
  }
});
