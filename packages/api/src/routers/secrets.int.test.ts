import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { createPgPool, SecretBox, sealedSecret } from '@looplane/db';
import { describeZodError } from '../errors';
import { apiTestbed } from '../testing/testbed';

const VALUE = `ghp_${randomBytes(12).toString('hex')}-WXYZ`;
const box = new SecretBox(randomBytes(32).toString('base64'));
const tb = apiTestbed({ deps: { secretBox: box } });

describe('team secrets', () => {
  it('create seals the value; list shows the name, last 4 characters and where the active policy uses it, never the value', async () => {
    const admin = await tb.as('admin');
    await admin.policies.save({
      teamId: tb.fx.teamId,
      document: {
        version: 1,
        egress: {
          allow: ['api.github.com:443', 'uploads.example.org'],
          credentials: [
            { host: 'api.github.com', header: 'Authorization', secretRef: 'GITHUB_TOKEN' },
            { host: 'uploads.example.org', header: 'X-Key', secretRef: 'UPLOADS_KEY' },
          ],
        },
      },
      comment: 'egress with credentials',
    });
    const created = await admin.secrets.create({ teamId: tb.fx.teamId, name: 'GITHUB_TOKEN', value: VALUE });
    expect(created).toMatchObject({ name: 'GITHUB_TOKEN', last4: 'WXYZ' });
    expect(JSON.stringify(created)).not.toContain(VALUE);
    const row = await tb.db.teamSecret.findFirstOrThrow({ where: { teamId: tb.fx.teamId, name: 'GITHUB_TOKEN' } });
    expect(row.ciphertext).not.toContain(VALUE.slice(4, 20));
    expect(box.open(row.ciphertext)).toBe(VALUE);

    const listed = await admin.secrets.list({ teamId: tb.fx.teamId });
    expect(listed.secrets).toEqual([
      expect.objectContaining({
        name: 'GITHUB_TOKEN',
        kind: 'header',
        username: null,
        forge: null,
        apiUrl: null,
        last4: 'WXYZ',
        usedBy: [{ host: 'api.github.com', header: 'Authorization' }],
      }),
    ]);
    expect(listed.missing).toEqual([{ secretRef: 'UPLOADS_KEY', host: 'uploads.example.org', header: 'X-Key' }]);
    expect(JSON.stringify(listed)).not.toContain(VALUE);
  });

  it('a second create of the same name is refused unless it replaces; every change is an audit row naming the secret only', async () => {
    const admin = await tb.as('admin');
    await expect(admin.secrets.create({ teamId: tb.fx.teamId, name: 'GITHUB_TOKEN', value: 'other-value-1234' })).rejects.toMatchObject({ code: 'CONFLICT' });
    const replaced = await admin.secrets.create({ teamId: tb.fx.teamId, name: 'GITHUB_TOKEN', value: 'rotated-value-5678', replace: true });
    expect(replaced.last4).toBe('5678');
    const row = await tb.db.teamSecret.findFirstOrThrow({ where: { teamId: tb.fx.teamId, name: 'GITHUB_TOKEN' } });
    expect(box.open(row.ciphertext)).toBe('rotated-value-5678');
    await admin.secrets.delete({ teamId: tb.fx.teamId, name: 'GITHUB_TOKEN' });
    expect(await tb.db.teamSecret.count({ where: { teamId: tb.fx.teamId } })).toBe(0);
    await expect(admin.secrets.delete({ teamId: tb.fx.teamId, name: 'GITHUB_TOKEN' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, targetType: 'secret' }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => [a.action, a.data])).toEqual([
      ['secret.created', { name: 'GITHUB_TOKEN', kind: 'header' }],
      ['secret.replaced', { name: 'GITHUB_TOKEN', kind: 'header' }],
      ['secret.deleted', { name: 'GITHUB_TOKEN' }],
    ]);
    const everything = JSON.stringify(await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId } }), (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    expect(everything).not.toContain(VALUE);
    expect(everything).not.toContain('rotated-value');
  });

  it('refuses values that would break a header, and a server without an encryption key stores nothing', async () => {
    const admin = await tb.as('admin');
    await expect(admin.secrets.create({ teamId: tb.fx.teamId, name: 'BAD', value: 'line\r\nX-Injected: 1' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(admin.secrets.create({ teamId: tb.fx.teamId, name: '../etc', value: 'value-1234' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const keyless = await tb.as('admin', { ...tb.deps, secretBox: null });
    await expect(keyless.secrets.create({ teamId: tb.fx.teamId, name: 'NOKEY', value: 'value-1234' })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(await tb.db.teamSecret.count({ where: { teamId: tb.fx.teamId } })).toBe(0);
  });

  it('is admin only', async () => {
    const approver = await tb.as('approver');
    await expect(approver.secrets.list({ teamId: tb.fx.teamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

/** A real unprotected ed25519 key from ssh-keygen, and its public half. */
function sshKeyPair(): { privateKey: string; publicKey: string } {
  const dir = mkdtempSync(join(tmpdir(), 'looplane-secret-key-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'deploy', '-f', join(dir, 'key')]);
    return { privateKey: readFileSync(join(dir, 'key'), 'utf8'), publicKey: readFileSync(join(dir, 'key.pub'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The public key ssh-keygen derives from `privateKey`: proof that ssh can read what was stored. */
function publicKeyOf(privateKey: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'looplane-secret-key-'));
  try {
    writeFileSync(join(dir, 'key'), privateKey, { mode: 0o600 });
    return execFileSync('ssh-keygen', ['-y', '-f', join(dir, 'key')], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('secret kinds: header, forge token, ssh key', () => {
  it('a token takes a user name, a forge and an API URL; list shows them and never the value', async () => {
    const admin = await tb.as('admin');
    const token = `glpat-${randomBytes(10).toString('hex')}-T0KN`;
    const created = await admin.secrets.create({
      teamId: tb.fx.teamId,
      name: 'GITLAB_BOT',
      kind: 'token',
      value: token,
      username: 'oauth2',
      forge: 'gitlab',
      apiUrl: 'https://gitlab.example.org/api/v4/',
    });
    expect(created).toMatchObject({
      name: 'GITLAB_BOT',
      kind: 'token',
      username: 'oauth2',
      forge: 'gitlab',
      apiUrl: 'https://gitlab.example.org/api/v4',
      last4: 'T0KN',
    });
    await admin.secrets.create({ teamId: tb.fx.teamId, name: 'GITHUB_BOT', kind: 'token', value: 'ghp_plain-token-1234', forge: 'github' });
    const listed = await admin.secrets.list({ teamId: tb.fx.teamId });
    expect(listed.secrets.filter((row) => row.kind === 'token')).toEqual([
      expect.objectContaining({ name: 'GITHUB_BOT', kind: 'token', username: null, forge: 'github', apiUrl: null, last4: '1234', usedBy: [] }),
      expect.objectContaining({ name: 'GITLAB_BOT', kind: 'token', username: 'oauth2', forge: 'gitlab', apiUrl: 'https://gitlab.example.org/api/v4' }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(token);
    const row = await tb.db.teamSecret.findFirstOrThrow({ where: { teamId: tb.fx.teamId, name: 'GITLAB_BOT' } });
    expect(box.open(row.ciphertext)).toBe(token);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, targetId: row.id } });
    expect([audit.action, audit.data]).toEqual(['secret.created', { name: 'GITLAB_BOT', kind: 'token', forge: 'gitlab' }]);
  });

  it('an ssh key pasted with \\r\\n line breaks is stored as ssh reads it; the worker reads it sealed and opens the same key', async () => {
    const admin = await tb.as('admin');
    const { privateKey, publicKey } = sshKeyPair();
    const pasted = privateKey.trim().replaceAll('\n', '\r\n');
    const created = await admin.secrets.create({ teamId: tb.fx.teamId, name: 'DEPLOY_KEY', kind: 'ssh_key', value: pasted });
    const body = privateKey.trim().split('\n').slice(1, -1).join('');
    expect(created).toMatchObject({ name: 'DEPLOY_KEY', kind: 'ssh_key', username: null, forge: null, apiUrl: null, last4: body.slice(-4) });
    expect(JSON.stringify(await admin.secrets.list({ teamId: tb.fx.teamId }))).not.toContain(body.slice(0, 40));

    const pool = createPgPool(tb.url, { max: 1 });
    try {
      const sealed = await sealedSecret(pool, tb.fx.teamId, 'DEPLOY_KEY');
      expect(sealed).toMatchObject({ name: 'DEPLOY_KEY', kind: 'ssh_key', username: null, forge: null, apiUrl: null });
      const opened = box.open(sealed!.ciphertext);
      expect(opened).toBe(privateKey);
      // The key type and key, without the comment.
      const typeAndKey = (line: string) => line.split(' ').slice(0, 2).join(' ');
      expect(typeAndKey(publicKeyOf(opened))).toBe(typeAndKey(publicKey));
    } finally {
      await pool.end();
    }
  });

  it('replace may change the kind: a header becomes a forge token, then an ssh key, and what the new kind lacks is cleared', async () => {
    const admin = await tb.as('admin');
    await admin.secrets.create({ teamId: tb.fx.teamId, name: 'SHIFTING', value: 'Bearer header-AAAA' });
    const asToken = await admin.secrets.create({
      teamId: tb.fx.teamId,
      name: 'SHIFTING',
      kind: 'token',
      value: 'tok-value-BBBB',
      username: 'bot',
      forge: 'gitea',
      apiUrl: 'http://127.0.0.1:3000/api/v1',
      replace: true,
    });
    expect(asToken).toMatchObject({ kind: 'token', username: 'bot', forge: 'gitea', apiUrl: 'http://127.0.0.1:3000/api/v1', last4: 'BBBB' });
    const asKey = await admin.secrets.create({ teamId: tb.fx.teamId, name: 'SHIFTING', kind: 'ssh_key', value: sshKeyPair().privateKey, replace: true });
    expect(asKey).toMatchObject({ kind: 'ssh_key', username: null, forge: null, apiUrl: null });
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, targetId: asKey.id }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => [a.action, a.data])).toEqual([
      ['secret.created', { name: 'SHIFTING', kind: 'header' }],
      ['secret.replaced', { name: 'SHIFTING', kind: 'token', forge: 'gitea' }],
      ['secret.replaced', { name: 'SHIFTING', kind: 'ssh_key' }],
    ]);
  });

  it('refuses values and settings that make no sense for the kind, saying which field and why, and stores nothing', async () => {
    const admin = await tb.as('admin');
    const { privateKey } = sshKeyPair();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ kind: 'token', value: 'line\nbreak' }, /value: must not contain control characters such as newlines/],
      [{ kind: 'header', value: privateKey }, /value: must not contain control characters such as newlines/],
      [{ kind: 'ssh_key', value: 'ghp_not-a-key-1234' }, /value: an ssh_key value must be a private key in OpenSSH or PEM form/],
      [{ kind: 'ssh_key', value: `${privateKey}\u0007` }, /value: an ssh_key value must not contain control characters other than line breaks/],
      [{ kind: 'ssh_key', value: privateKey.replace('\n', `\n${'A'.repeat(17_000)}\n`) }, /value: must be at most 16384 characters/],
      [{ kind: 'ssh_key', value: privateKey, username: 'git' }, /username: only a token secret takes a username, not an ssh_key secret/],
      [{ kind: 'header', value: 'Bearer abcd', forge: 'github' }, /forge: only a token secret takes a forge, not a header secret/],
      [{ value: 'Bearer abcd', apiUrl: 'https://api.github.com' }, /apiUrl: only a token secret takes an API URL, not a header secret/],
      [{ kind: 'token', value: 'tok-1234', apiUrl: 'https://api.github.com' }, /apiUrl: an API URL needs a forge/],
      [
        { kind: 'token', value: 'tok-1234', forge: 'github', apiUrl: 'http://api.example.org' },
        /apiUrl: must be https \(http only for 127\.0\.0\.1 or localhost\)/,
      ],
      [{ kind: 'token', value: 'tok-1234', forge: 'github', apiUrl: 'ftp://example.org' }, /apiUrl: must be an https URL/],
      [{ kind: 'token', value: 'tok-1234', forge: 'github', apiUrl: 'https://user:pw@example.org' }, /apiUrl: must not contain a user name or password/],
      [{ kind: 'token', value: 'tok-1234', username: 'a:b' }, /username: must start with a letter or digit/],
      [{ kind: 'token', value: 'tok-1234', forge: 'bitbucket' }, /forge: Invalid option/],
      [{ kind: 'password', value: 'tok-1234' }, /kind: Invalid option/],
    ];
    for (const [fields, message] of cases) {
      const what = JSON.stringify(fields).slice(0, 100);
      const refusal: unknown = await admin.secrets
        .create({ teamId: tb.fx.teamId, name: 'REFUSED', ...fields } as Parameters<typeof admin.secrets.create>[0])
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refusal, what).toMatchObject({ code: 'BAD_REQUEST' });
      // What a client reads: the API edge describes the validation failure in one line.
      const cause = (refusal as { cause?: unknown }).cause;
      expect(cause, what).toBeInstanceOf(ZodError);
      expect(describeZodError(cause as ZodError), what).toMatch(message);
    }
    expect(await tb.db.teamSecret.count({ where: { teamId: tb.fx.teamId, name: 'REFUSED' } })).toBe(0);
  });
});
