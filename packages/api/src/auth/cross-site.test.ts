import { describe, expect, it } from 'vitest';
import { crossSiteRefusal } from './cross-site';

function post(headers: Record<string, string>, url = 'http://looplane.test:3000/api/trpc/runs.create'): Request {
  return new Request(url, { method: 'POST', headers: { host: 'looplane.test:3000', ...headers }, body: '{}' });
}

describe('crossSiteRefusal', () => {
  it('lets the dashboard’s own requests through', () => {
    expect(crossSiteRefusal(post({ origin: 'http://looplane.test:3000', 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossSiteRefusal(post({ origin: 'HTTP://LOOPLANE.TEST:3000' }))).toBeNull();
  });

  it('refuses another site by Origin or by Sec-Fetch-Site, saying what to do instead', () => {
    const reason = crossSiteRefusal(post({ origin: 'https://evil.example' }));
    expect(reason).toMatch(/^Cross-site request refused \(from https:\/\/evil\.example\): .*API token \(Authorization: Bearer\)$/);
    expect(crossSiteRefusal(post({ 'sec-fetch-site': 'cross-site' }))).not.toBeNull();
    // A sibling subdomain is another origin too.
    expect(crossSiteRefusal(post({ 'sec-fetch-site': 'same-site', origin: 'http://app.looplane.test:3000' }))).not.toBeNull();
    expect(crossSiteRefusal(post({ origin: 'null' }))).not.toBeNull();
    expect(crossSiteRefusal(post({ origin: 'http://looplane.test:3001' }))).not.toBeNull();
    expect(crossSiteRefusal(post({ origin: 'https://looplane.test:3000' }))).not.toBeNull();
  });

  it('believes the forwarded scheme and host (the server in front of Next keeps them only from trusted proxies)', () => {
    const behindProxy = { host: '127.0.0.1:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'looplane.example.com' };
    expect(crossSiteRefusal(post({ ...behindProxy, origin: 'https://looplane.example.com' }))).toBeNull();
    expect(crossSiteRefusal(post({ ...behindProxy, origin: 'http://127.0.0.1:3000' }))).not.toBeNull();
  });

  it('accepts the configured public origin besides the request’s own', () => {
    const request = post({ host: '127.0.0.1:3000', origin: 'https://looplane.example.com' });
    expect(crossSiteRefusal(request)).not.toBeNull();
    expect(crossSiteRefusal(request, { allowedOrigins: ['https://looplane.example.com/'] })).toBeNull();
  });

  it('exempts Bearer requests, safe methods and requests that are not a browser’s', () => {
    expect(crossSiteRefusal(post({ origin: 'https://evil.example', authorization: 'Bearer llp_x' }))).toBeNull();
    expect(
      crossSiteRefusal(new Request('http://looplane.test:3000/api/trpc/me', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })),
    ).toBeNull();
    expect(crossSiteRefusal(post({}))).toBeNull();
  });
});
