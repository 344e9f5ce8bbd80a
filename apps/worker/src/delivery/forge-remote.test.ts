import { describe, expect, it } from 'vitest';
import { defaultForgeApiUrl, forgeRepositoryOf } from './forge-remote';

describe('forgeRepositoryOf and defaultForgeApiUrl', () => {
  it('reads owner and repository from https, ssh:// and scp-like remotes, and derives each forge API URL from the host', () => {
    const cases: [Parameters<typeof forgeRepositoryOf>[0], string, { path: string; owner: string; repo: string }, string][] = [
      ['github', 'https://github.com/acme/widgets.git', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'https://api.github.com'],
      ['github', 'git@github.com:acme/widgets.git', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'https://api.github.com'],
      ['github', 'https://ghe.example.org/acme/widgets', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'https://ghe.example.org/api/v3'],
      ['gitlab', 'https://gitlab.com/group/sub/project.git', { path: 'group/sub/project', owner: 'group', repo: 'project' }, 'https://gitlab.com/api/v4'],
      [
        'gitlab',
        'ssh://git@gitlab.example.org:2222/group/project.git',
        { path: 'group/project', owner: 'group', repo: 'project' },
        'https://gitlab.example.org/api/v4',
      ],
      ['gitea', 'https://git.example.org:3443/acme/widgets/', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'https://git.example.org:3443/api/v1'],
      // http only stays http on this machine; elsewhere the token goes over https.
      ['gitea', 'http://127.0.0.1:3000/acme/widgets.git', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'http://127.0.0.1:3000/api/v1'],
      ['gitea', 'http://git.example.org/acme/widgets.git', { path: 'acme/widgets', owner: 'acme', repo: 'widgets' }, 'https://git.example.org/api/v1'],
    ];
    for (const [forge, remote, expected, api] of cases) {
      const repository = forgeRepositoryOf(forge, remote);
      expect(repository, remote).toMatchObject(expected);
      expect(defaultForgeApiUrl(forge, repository), remote).toBe(api);
    }
  });

  it('refuses remotes that name no repository of the forge', () => {
    expect(() => forgeRepositoryOf('github', 'https://github.com/acme')).toThrow(/owner\/repository/);
    expect(() => forgeRepositoryOf('github', 'https://github.com/a/b/c')).toThrow(/owner\/repository/);
    expect(() => forgeRepositoryOf('gitlab', 'https://gitlab.com/project')).toThrow(/group\/project/);
    expect(() => forgeRepositoryOf('gitea', 'https://git.example.org/acme/wid%20gets')).toThrow(/only letters, digits/);
    expect(() => forgeRepositoryOf('gitea', 'not a url')).toThrow(/^The remote URL must not contain spaces/);
  });
});
