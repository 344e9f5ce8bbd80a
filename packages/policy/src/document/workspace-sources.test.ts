import { describe, expect, it } from 'vitest';
import { policyDocumentSchema } from './policy-schema';
import { isSourceAllowed } from './workspace-sources';

const allowed = (sources: string[], url: string) => isSourceAllowed(sources, url).allowed;

describe('workspace.sources', () => {
  it('defaults to none, and says what to add', () => {
    const document = policyDocumentSchema.parse({ version: 1 });
    expect(document.workspace.sources).toEqual([]);
    const decision = isSourceAllowed(document.workspace.sources, 'https://github.com/acme/api.git');
    expect(decision).toMatchObject({ allowed: false });
    expect(!decision.allowed && decision.reason).toMatch(/allows no repositories.*https:\/\/github.com\/acme\/api.git/);
  });

  it('matches * within one path segment and ** across segments', () => {
    const acme = ['https://github.com/acme/*'];
    expect(allowed(acme, 'https://github.com/acme/api')).toBe(true);
    expect(allowed(acme, 'https://github.com/acme/api.git')).toBe(true);
    expect(allowed(acme, 'https://github.com/acme/api/extra')).toBe(false);
    expect(allowed(acme, 'https://github.com/other/api')).toBe(false);
    expect(allowed(acme, 'https://github.com.evil.example/acme/api')).toBe(false);
    expect(allowed(acme, 'http://github.com/acme/api')).toBe(false);
    expect(allowed(['file:///srv/git/**'], 'file:///srv/git/team/a/b.git')).toBe(true);
    expect(allowed(['file:///srv/git/**'], 'file:///srv/gitx/a.git')).toBe(false);
  });

  it('matches * in the port', () => {
    const local = ['http://127.0.0.1:*/**'];
    expect(allowed(local, 'http://127.0.0.1:4567/team/repo.git')).toBe(true);
    expect(allowed(local, 'http://127.0.0.2:4567/team/repo.git')).toBe(false);
    expect(allowed(local, 'http://127.0.0.1.nip.io:80/repo.git')).toBe(false);
  });

  it('compares scp-like addresses in their ssh:// form, hosts without regard to case', () => {
    expect(allowed(['git@github.com:acme/*'], 'ssh://git@github.com/acme/api.git')).toBe(true);
    expect(allowed(['ssh://git@github.com/acme/*'], 'git@github.com:acme/api.git')).toBe(true);
    expect(allowed(['https://GitHub.com/acme/*'], 'https://github.COM/acme/api')).toBe(true);
    expect(allowed(['ssh://git@github.com/acme/*'], 'ssh://root@github.com/acme/api.git')).toBe(false);
  });

  it('refuses URLs that carry credentials whatever the patterns say', () => {
    const decision = isSourceAllowed(['**'], 'https://user:ghp_secret@github.com/acme/api');
    expect(decision.allowed).toBe(false);
  });

  it('refuses a pattern that is not a repository URL when the document is parsed', () => {
    expect(policyDocumentSchema.safeParse({ version: 1, workspace: { sources: ['ftp://x/*'] } }).success).toBe(false);
    expect(policyDocumentSchema.safeParse({ version: 1, workspace: { sources: ['http://127.0.0.1:*/**', 'git@github.com:acme/*'] } }).success).toBe(true);
  });
});
