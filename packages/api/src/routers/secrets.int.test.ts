import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '@looplane/db';
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
      expect.objectContaining({ name: 'GITHUB_TOKEN', last4: 'WXYZ', usedBy: [{ host: 'api.github.com', header: 'Authorization' }] }),
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
      ['secret.created', { name: 'GITHUB_TOKEN' }],
      ['secret.replaced', { name: 'GITHUB_TOKEN' }],
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
