import { describe, expect, it } from 'vitest';
import { UsageError } from '../command';
import { workspaceChoice } from './workspace-flags';

describe('workspaceChoice', () => {
  it('reads a repository with its ref, secret and depth', () => {
    expect(workspaceChoice({ repo: 'git@github.com:acme/api.git', ref: 'v2', secret: 'DEPLOY_KEY', depth: '50' })).toEqual({
      kind: 'source',
      source: { git: { url: 'git@github.com:acme/api.git', ref: 'v2', secretRef: 'DEPLOY_KEY', depth: 50 } },
    });
    expect(workspaceChoice({ repo: 'https://github.com/acme/api.git' })).toEqual({
      kind: 'source',
      source: { git: { url: 'https://github.com/acme/api.git' } },
    });
  });

  it('reads an archive to upload, another session (at an event or its latest), or nothing', () => {
    expect(workspaceChoice({ archive: './seed.tar.gz' })).toEqual({ kind: 'archive', path: './seed.tar.gz' });
    expect(workspaceChoice({ 'from-session': 'cm1abc@12' })).toEqual({ kind: 'source', source: { session: { sessionId: 'cm1abc', atEvent: 12 } } });
    expect(workspaceChoice({ 'from-session': 'cm1abc' })).toEqual({ kind: 'source', source: { session: { sessionId: 'cm1abc' } } });
    expect(workspaceChoice({})).toEqual({ kind: 'default' });
  });

  it('refuses two sources, repository options without --repo, and malformed values, saying which', () => {
    const refused: Array<[Parameters<typeof workspaceChoice>[0], string]> = [
      [{ repo: 'https://x/y.git', archive: 'a.tar' }, 'give one of --repo, --archive or --from-session, not --repo and --archive'],
      [{ archive: 'a.tar', 'from-session': 's' }, 'give one of --repo, --archive or --from-session, not --archive and --from-session'],
      [{ ref: 'main' }, '--ref goes with --repo URL'],
      [{ archive: 'a.tar', secret: 'TOKEN' }, '--secret goes with --repo URL'],
      [{ repo: 'https://x/y.git', depth: '0' }, '--depth must be a whole number of 1 or more'],
      [{ repo: 'https://x/y.git', depth: 'deep' }, '--depth must be a whole number of 1 or more'],
      [{ 'from-session': 'cm1abc@' }, '--from-session takes SESSION_ID or SESSION_ID@EVENT (e.g. cm1abc@12)'],
      [{ 'from-session': 'a/b' }, '--from-session takes SESSION_ID or SESSION_ID@EVENT (e.g. cm1abc@12)'],
      [{ 'from-session': 'cm1abc@0' }, '--from-session: the event must be 1 or more'],
      [{ archive: '' }, '--archive needs the path of a .tar, .tar.gz or .zip file'],
    ];
    for (const [flags, message] of refused) {
      expect(() => workspaceChoice(flags), JSON.stringify(flags)).toThrow(new UsageError(message));
    }
  });
});
