import { workspaceSourceSchema } from '@looplane/engine';
import { describe, expect, it } from 'vitest';
import { EMPTY_REPOSITORY, EMPTY_WORKSPACE, repositorySource, workspaceSource } from './workspace-draft';

describe('the New run page’s files choice', () => {
  it('sends nothing for none, so the agent’s default applies', () => {
    expect(workspaceSource(EMPTY_WORKSPACE)).toBeUndefined();
  });

  it('sends a repository with only the fields given, trimmed', () => {
    const source = workspaceSource({
      ...EMPTY_WORKSPACE,
      choice: 'git',
      repository: { url: ' https://git.example/acme/api.git ', ref: 'main', secretRef: 'REPO_TOKEN', depth: '' },
    });
    expect(source).toEqual({ git: { url: 'https://git.example/acme/api.git', ref: 'main', secretRef: 'REPO_TOKEN' } });
    expect(workspaceSourceSchema.safeParse(source).success).toBe(true);
    expect(repositorySource({ ...EMPTY_REPOSITORY, url: 'git@host:a/b.git', depth: '50' })).toEqual({ git: { url: 'git@host:a/b.git', depth: 50 } });
  });

  it('says what is missing or malformed', () => {
    expect(() => workspaceSource({ ...EMPTY_WORKSPACE, choice: 'git' })).toThrow('Give the repository URL');
    expect(() => repositorySource({ ...EMPTY_REPOSITORY, url: 'https://x/y.git', depth: '0' })).toThrow(
      'The history depth must be a whole number of at least 1',
    );
    expect(() => workspaceSource({ ...EMPTY_WORKSPACE, choice: 'archive' })).toThrow('wait until it is uploaded');
    expect(() => workspaceSource({ ...EMPTY_WORKSPACE, choice: 'session' })).toThrow('Give the id of the session');
    expect(() => workspaceSource({ ...EMPTY_WORKSPACE, choice: 'session', session: { sessionId: 's1', atEvent: '2.5' } })).toThrow('The event must be');
  });

  it('sends an upload and another session’s files at an event', () => {
    expect(workspaceSource({ ...EMPTY_WORKSPACE, choice: 'archive', uploadId: 'up1' })).toEqual({ archive: { uploadId: 'up1' } });
    expect(workspaceSource({ ...EMPTY_WORKSPACE, choice: 'session', session: { sessionId: ' s1 ', atEvent: '7' } })).toEqual({
      session: { sessionId: 's1', atEvent: 7 },
    });
  });
});
