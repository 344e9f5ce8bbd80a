import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { SecretRedactor, secretForms } from './secret-redactor';

const TOKEN = 'ghp_Zq8wX3vLr7TnB2kY9mPd4Hs6Jc1Ga5Ef0Ui';

/** Runs `chunks` through a redactor's stream, one write each, and returns what came out. */
async function throughStream(redactor: SecretRedactor, chunks: (string | Buffer)[]): Promise<string> {
  const source = Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  return (await buffer(source.pipe(redactor.stream()))).toString('utf8');
}

describe('secret forms', () => {
  it('covers the value, the token after its scheme, base64, base64url, URL-encoded and basic-auth parts', () => {
    const forms = secretForms([`Bearer ${TOKEN}`, `Basic ${Buffer.from('deploy:hunter2-long-pass').toString('base64')}`]);
    expect(forms).toEqual(
      expect.arrayContaining([
        `Bearer ${TOKEN}`,
        TOKEN,
        Buffer.from(TOKEN).toString('base64').replace(/=+$/, ''),
        Buffer.from(TOKEN).toString('base64url'),
        encodeURIComponent(`Bearer ${TOKEN}`),
        'deploy:hunter2-long-pass',
        'hunter2-long-pass',
      ]),
    );
  });

  it('leaves out forms too short to be told from ordinary text', () => {
    expect(secretForms(['k', 'Bearer x'])).toEqual(['Bearer x', 'QmVhcmVyIHg', encodeURIComponent('Bearer x')]);
  });
});

describe('secret redactor', () => {
  const redactor = new SecretRedactor([`Bearer ${TOKEN}`]);

  it('redacts text and header values in every form', () => {
    const b64 = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
    const padding = /=*$/.exec(b64)?.[0] ?? '';
    expect(padding).not.toBe('');
    expect(redactor.redactText(`{"authorization":"Bearer ${TOKEN}","raw":"${TOKEN}","b64":"${b64}"}`)).toBe(
      `{"authorization":"[redacted]","raw":"[redacted]","b64":"[redacted]${padding}"}`,
    );
    expect(redactor.redactHeader(`token=${TOKEN}; Path=/`)).toBe('token=[redacted]; Path=/');
    expect(new SecretRedactor([]).active).toBe(false);
  });

  it('redacts a secret split across chunks, at every split point', async () => {
    const body = `before ${TOKEN} after`;
    for (let split = 1; split < body.length; split++) {
      expect(await throughStream(redactor, [body.slice(0, split), body.slice(split)])).toBe('before [redacted] after');
    }
    // One byte a chunk, and a split inside the second of two secrets.
    expect(
      await throughStream(
        redactor,
        [...`${TOKEN}${TOKEN}`].map((c) => c),
      ),
    ).toBe('[redacted][redacted]');
  });

  it('passes other bytes through unchanged, multi-byte characters split across chunks included', async () => {
    const text = 'héllo wörld ✓ '.repeat(50);
    const bytes = Buffer.from(text);
    expect(await throughStream(redactor, [bytes.subarray(0, 7), bytes.subarray(7, 300), bytes.subarray(300)])).toBe(text);
    expect(await throughStream(new SecretRedactor([]), [bytes])).toBe(text);
  });

  it('passes on what cannot be part of a secret at once, holding back only a secret-sized tail', async () => {
    const stream = redactor.stream();
    const out: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    const filler = '.'.repeat(4096);
    stream.write(filler + TOKEN.slice(0, 10));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const first = Buffer.concat(out).toString();
    expect(first.length).toBeGreaterThan(0);
    expect(filler.startsWith(first)).toBe(true);
    stream.end(TOKEN.slice(10));
    await new Promise<void>((resolve) => stream.once('end', resolve));
    expect(Buffer.concat(out).toString()).toBe(`${filler}[redacted]`);
  });
});
