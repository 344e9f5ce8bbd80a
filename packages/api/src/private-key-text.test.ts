import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PRIVATE_KEY_BYTES, readPrivateKey } from './private-key-text';

// Real keys: ssh-keygen's OpenSSH form (with and without a passphrase) and node's PEM forms.
const dir = mkdtempSync(join(tmpdir(), 'looplane-private-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sshKeygen(name: string, passphrase: string): string {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'test', '-f', join(dir, name)]);
  return readFileSync(join(dir, name), 'utf8');
}

const openssh = sshKeygen('plain', '');
const protectedOpenssh = sshKeygen('protected', 'correct horse');
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;

describe('readPrivateKey', () => {
  it('accepts OpenSSH, PKCS#1, PKCS#8 and SEC1 keys, and stores them with \\n line breaks and one final newline', () => {
    const pems = [
      rsa.export({ type: 'pkcs1', format: 'pem' }).toString(),
      rsa.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ec.export({ type: 'sec1', format: 'pem' }).toString(),
    ];
    for (const key of [openssh, ...pems]) expect(readPrivateKey(key)).toEqual({ ok: true, normalized: key });
    const pasted = `\r\n  ${openssh.trim().replaceAll('\n', '\r\n')}\r\n\r\n`;
    expect(readPrivateKey(pasted)).toEqual({ ok: true, normalized: openssh });
    expect(readPrivateKey(openssh.trim())).toEqual({ ok: true, normalized: openssh });
  });

  it('refuses a key protected by a passphrase, in every form, saying how to remove it', () => {
    const encryptedPkcs8 = rsa.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
    const legacyEncrypted = rsa.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
    expect(legacyEncrypted).toContain('Proc-Type: 4,ENCRYPTED');
    for (const key of [protectedOpenssh, encryptedPkcs8, legacyEncrypted]) {
      expect(readPrivateKey(key)).toEqual({ ok: false, reason: expect.stringMatching(/^is protected by a passphrase; .*ssh-keygen -p/) });
    }
  });

  it('refuses what is not one private key, never quoting it', () => {
    const publicKey = readFileSync(join(dir, 'plain.pub'), 'utf8');
    const publicPem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const cases: [string, RegExp][] = [
      [publicKey, /^must be a private key in OpenSSH or PEM form/],
      [publicPem, /^must be a private key in OpenSSH or PEM form/],
      ['ghp_notakey', /^must be a private key/],
      [`comment before\n${openssh}`, /^must be a private key/],
      [`${openssh}trailing text\n`, /^must be a private key/],
      [openssh.replace('-----END OPENSSH', '-----END RSA'), /^must end with -----END OPENSSH PRIVATE KEY----- as it begins/],
      [openssh.replace(/\n[A-Za-z0-9+/=]+\n/, '\nnot base64 at all!\n'), /the lines between must be base64/],
      ['-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----', /not in the openssh-key-v1 format/],
      [openssh.replace('\n', '\n\t'), /^must not contain control characters other than line breaks/],
      [openssh.replace('\n', '\u001b[2J\n'), /^must not contain control characters other than line breaks/],
      [`${openssh}${'A'.repeat(MAX_PRIVATE_KEY_BYTES)}`, /^must be at most 16384 bytes/],
    ];
    for (const [text, reason] of cases) {
      const read = readPrivateKey(text);
      expect(read, text.slice(0, 60)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
      if (!read.ok) expect(read.reason).not.toContain(openssh.split('\n')[1]!.slice(0, 20));
    }
  });
});
