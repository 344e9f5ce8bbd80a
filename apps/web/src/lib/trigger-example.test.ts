import { execFileSync } from 'node:child_process';
import { generateSigningSecret } from '@looplane/webhooks';
import { signWithReference } from '@looplane/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { curlExample, hookUrl } from './trigger-example';

/** Runs the example in bash with `curl` replaced by a function that prints its arguments, one per line. */
function runExample(script: string): string[] {
  const output = execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${script}`], { encoding: 'utf8' });
  return output.split('\n').filter((line) => line !== '');
}

function headersOf(args: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  args.forEach((arg, index) => {
    if (args[index - 1] !== '-H') return;
    const colon = arg.indexOf(':');
    headers[arg.slice(0, colon).toLowerCase()] = arg.slice(colon + 1).trim();
  });
  return headers;
}

describe('curlExample', () => {
  const url = hookUrl('http://127.0.0.1:3000/', '/api/hooks/trg_1');

  it('joins the origin and the path', () => {
    expect(url).toBe('http://127.0.0.1:3000/api/hooks/trg_1');
  });

  it('signs a delivery as the standardwebhooks package does', () => {
    const secret = generateSigningSecret();
    const args = runExample(curlExample({ url, auth: 'standard_webhooks', secret }));
    const body = args[args.indexOf('-d') + 1]!;
    const headers = headersOf(args);
    expect(args).toContain(url);
    expect(JSON.parse(body)).toHaveProperty('subject');
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    const reference = signWithReference(secret, headers['webhook-id']!, at, body);
    expect(headers['webhook-signature']).toBe(reference['webhook-signature']);
    expect(headers['webhook-signature']).not.toBe(signWithReference(generateSigningSecret(), headers['webhook-id']!, at, body)['webhook-signature']);
  });

  it('sends a bearer secret as is, quoted for the shell', () => {
    const args = runExample(curlExample({ url, auth: 'bearer', secret: "lltr_a'b" }));
    expect(headersOf(args).authorization).toBe("Bearer lltr_a'b");
  });
});
