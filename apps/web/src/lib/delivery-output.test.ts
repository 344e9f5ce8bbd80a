import { describe, expect, it } from 'vitest';
import { branchWebUrl, deliveriesOf, parseOpened, parsePushed, webUrl } from './delivery-output';
import type { TimelineItem } from './timeline';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

describe('delivery outputs', () => {
  it('reads the branch, remote and commit of a push', () => {
    expect(parsePushed(`Pushed fix/widget to https://github.com/acme/widgets.git at ${SHA} (1 commit on top of 0123456).`)).toEqual({
      branch: 'fix/widget',
      remote: 'https://github.com/acme/widgets.git',
      commit: SHA,
    });
    expect(parsePushed('not pushed: the files are as the run started')).toBeNull();
    expect(parsePushed('fix/widget on https://x/y.git already holds these files (at abc); nothing to push.')).toBeNull();
  });

  it('reads the number, branches and address of a pull request', () => {
    expect(parseOpened('Opened pull request #12 from fix/widget into main: https://github.com/acme/widgets/pull/12\nmore')).toEqual({
      number: 12,
      branch: 'fix/widget',
      base: 'main',
      url: 'https://github.com/acme/widgets/pull/12',
    });
    expect(parseOpened('Opened nothing')).toBeNull();
  });

  it('links only http(s) addresses', () => {
    expect(webUrl('https://github.com/acme/widgets/pull/12')).toBe('https://github.com/acme/widgets/pull/12');
    expect(webUrl('javascript:alert(1)')).toBeNull();
    expect(webUrl('file:///srv/repos/a.git')).toBeNull();
    expect(webUrl('git@github.com:acme/widgets.git')).toBeNull();
  });

  it('links a branch on a hosted forge, else the repository', () => {
    expect(branchWebUrl('https://github.com/acme/widgets.git', 'fix/a b')).toBe('https://github.com/acme/widgets/tree/fix/a%20b');
    expect(branchWebUrl('https://gitlab.com/acme/widgets.git', 'fix/x')).toBe('https://gitlab.com/acme/widgets/-/tree/fix/x');
    expect(branchWebUrl('http://127.0.0.1:4010/acme/widgets.git', 'fix/x')).toBe('http://127.0.0.1:4010/acme/widgets');
    expect(branchWebUrl('ssh://git@github.com/acme/widgets.git', 'fix/x')).toBeNull();
  });

  it('lists the successful pushes and pull requests of a line, nothing else', () => {
    const tool = (key: string, name: string, status: 'ok' | 'failed', output: string): TimelineItem => ({
      kind: 'tool',
      key,
      name,
      args: {},
      status,
      output,
      at: '2026-03-01T14:02:03.000Z',
      seq: 1,
      sessionId: 's1',
      eventNo: 1,
      forkBlocker: null,
    });
    const items = [
      tool('t1', 'publish_branch', 'failed', 'not pushed: the files are as the run started'),
      tool('t2', 'publish_branch', 'ok', `Pushed fix/x to https://git.example/a.git at ${SHA} (on 0123456789ab).`),
      tool('t3', 'shell', 'ok', `Pushed fix/y to https://git.example/a.git at ${SHA}`),
      tool('t4', 'open_pull_request', 'ok', 'Opened pull request #3 from fix/x into main: https://git.example/a/pulls/3'),
    ];
    expect(deliveriesOf(items)).toEqual([
      { key: 't2', pushed: { branch: 'fix/x', remote: 'https://git.example/a.git', commit: SHA } },
      { key: 't4', opened: { number: 3, branch: 'fix/x', base: 'main', url: 'https://git.example/a/pulls/3' } },
    ]);
  });
});
