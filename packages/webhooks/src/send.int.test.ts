import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWebhookTarget } from './egress';
import { sendWebhook } from './send';
import { generateSigningSecret, signedHeaders } from './signing';
import { startReceiver, verifyReceived, type TestReceiver } from './testing/receiver';

/** One attempt over real HTTP against a receiver on 127.0.0.1. */
let receiver: TestReceiver;
const secret = generateSigningSecret();
const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { hello: 'world' } });
const attempt = (url: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
  sendWebhook({ url, body, headers: signedHeaders(secret, 'msg_test', Math.floor(Date.now() / 1000), body), allowPrivate: true, timeoutMs: 5000, ...extra });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('one delivery attempt', () => {
  it('a 2xx is delivered: signed, verifiable, with the first KiB of the answer', async () => {
    receiver.reply = () => ({ status: 202, body: 'é'.repeat(3000) });
    const before = receiver.requests.length;
    const outcome = await attempt(receiver.url);
    expect(outcome).toMatchObject({ delivered: true, statusCode: 202, error: null, aborted: false });
    expect(Buffer.byteLength(outcome.responseExcerpt!)).toBeLessThanOrEqual(1024 + 3);
    expect(outcome.responseExcerpt!.startsWith('éé')).toBe(true);
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const request = receiver.requests[before]!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(verifyReceived(request, secret)).toMatchObject({ type: 'webhook.test', data: { hello: 'world' } });
  });

  it('anything else fails with the status', async () => {
    receiver.reply = () => ({ status: 500, body: 'boom' });
    expect(await attempt(receiver.url)).toMatchObject({ delivered: false, statusCode: 500, responseExcerpt: 'boom', error: 'answered 500' });
  });

  it('a redirect is not followed', async () => {
    receiver.reply = () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    const before = receiver.requests.length;
    const outcome = await attempt(receiver.url);
    expect(outcome).toMatchObject({ delivered: false, statusCode: 302 });
    expect(outcome.error).toMatch(/redirects are not followed \(to http:\/\/169\.254\.169\.254/);
    expect(receiver.requests.length).toBe(before + 1);
  });

  it('no answer within the timeout fails', async () => {
    receiver.reply = () => 'hold';
    expect(await attempt(receiver.url, { timeoutMs: 300 })).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'no response within 300 ms',
      aborted: false,
    });
  });

  it('a stopped worker aborts the attempt and says so', async () => {
    receiver.reply = () => 'hold';
    const controller = new AbortController();
    const pending = attempt(receiver.url, { signal: controller.signal });
    await receiver.waitFor(receiver.requests.length + 1);
    controller.abort();
    expect(await pending).toMatchObject({ delivered: false, aborted: true, error: 'the worker stopped during the attempt' });
  });

  it('a connection refused fails with the reason', async () => {
    const outcome = await attempt('http://127.0.0.1:9/hook');
    expect(outcome).toMatchObject({ delivered: false, statusCode: null });
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});

describe('egress: public addresses only, checked at every attempt and pinned for the connection', () => {
  const port = () => new URL(receiver.url).port;
  const privateTargets: [string, RegExp][] = [
    [`http://127.0.0.1:${0}/hook`, /127\.0\.0\.1 is a loopback address/],
    ['http://10.1.2.3/hook', /10\.1\.2\.3 is a private address/],
    ['http://169.254.169.254/latest', /169\.254\.169\.254 is a link-local address/],
    ['http://[::1]/hook', /::1 is a loopback address/],
    ['http://[::ffff:127.0.0.1]/hook', /IPv4-mapped form of a loopback address/],
    ['http://100.64.0.1/hook', /carrier-grade NAT/],
    ['http://0.0.0.0/hook', /unspecified/],
  ];
  for (const [template, reason] of privateTargets) {
    it(`refuses ${template} without connecting`, async () => {
      receiver.reply = () => ({ status: 200 });
      const url = template.replace(':0/', `:${port()}/`);
      const before = receiver.requests.length;
      const outcome = await attempt(url, { allowPrivate: false });
      expect(outcome).toMatchObject({ delivered: false, statusCode: null });
      expect(outcome.error).toMatch(reason);
      expect(outcome.error).toMatch(/LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true/);
      expect(receiver.requests.length).toBe(before);
    });
  }

  it('refuses a name that resolves to a private address (localhost)', async () => {
    await expect(resolveWebhookTarget(`http://localhost:${port()}/hook`, { allowPrivate: false })).rejects.toThrow(
      /localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/,
    );
  });

  it('refuses a name with any private address among its public ones', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(resolveWebhookTarget('https://mixed.example.test/', { allowPrivate: false, resolve })).rejects.toThrow(
      /resolves to 10\.0\.0\.5, which is a private address/,
    );
    await expect(resolveWebhookTarget('https://mixed.example.test/', { allowPrivate: true, resolve })).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('resolves once per attempt and connects to the address it checked (a second answer is never asked for)', async () => {
    receiver.reply = () => ({ status: 204 });
    let lookups = 0;
    // A rebinding name: the first answer is the receiver, any later one would be elsewhere.
    const resolve = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]);
    const before = receiver.requests.length;
    const outcome = await attempt(`http://rebind.looplane.test:${port()}/hook`, { resolve });
    expect(outcome).toMatchObject({ delivered: true, statusCode: 204 });
    expect(lookups).toBe(1);
    expect(receiver.requests[before]!.headers.host).toBe(`rebind.looplane.test:${port()}`);
  });

  it('a name that does not resolve fails clearly', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await attempt('https://nowhere.looplane.test/', { resolve })).error).toBe('Cannot resolve nowhere.looplane.test (ENOTFOUND)');
  });
});
