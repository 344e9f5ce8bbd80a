import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ForgeDouble, startForgeDouble } from '../testing/forge-double';
import { ForgeRequestError, openPullRequest } from './forge-client';

// Pull requests opened on a real HTTP forge on 127.0.0.1 that answers as GitHub, GitLab and Gitea do.
const TOKEN = `tok_${randomBytes(16).toString('hex')}`;
let forge: ForgeDouble;
let elsewhere: ForgeDouble;
const fields = { head: 'looplane/fix-parser', base: 'main', title: 'Fix the parser', body: 'The parser now reads CRLF.\n\nOpened by a run.' };

beforeAll(async () => {
  forge = await startForgeDouble({ token: TOKEN });
  elsewhere = await startForgeDouble();
});
afterEach(() => {
  forge.reset();
  forge.requests.length = 0;
  elsewhere.requests.length = 0;
});
afterAll(async () => {
  await forge.close();
  await elsewhere.close();
});

/** The rejection of `attempt`, checked to be a ForgeRequestError that never holds the token. */
async function refusal(attempt: Promise<unknown>): Promise<ForgeRequestError> {
  const error = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ForgeRequestError);
  expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain(TOKEN);
  return error as ForgeRequestError;
}

describe('openPullRequest against a forge double (real HTTP on 127.0.0.1)', () => {
  it('GitHub: one POST to /repos/{owner}/{repo}/pulls with the token as a Bearer and the fields as JSON; the html_url comes back', async () => {
    const opened = await openPullRequest({ forge: 'github', apiUrl: forge.url, remoteUrl: 'https://github.com/acme/widgets.git', token: TOKEN, ...fields });
    expect(opened).toEqual({ url: `${forge.url}/acme/widgets/pull/1`, number: 1 });
    expect(forge.requests).toHaveLength(1);
    const [request] = forge.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/repos/acme/widgets/pulls', body: fields });
    expect(request!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' });
    expect(request!.headers['private-token']).toBeUndefined();
  });

  it('GitHub Enterprise: without an API URL it is derived from the remote host (/api/v3)', async () => {
    const remoteUrl = `${forge.url}/acme/widgets.git`;
    const opened = await openPullRequest({ forge: 'github', remoteUrl, token: TOKEN, ...fields });
    expect(opened.url).toMatch(new RegExp(`^${forge.url}/acme/widgets/pull/\\d+$`));
    expect(forge.requests.map((r) => r.path)).toEqual(['/api/v3/repos/acme/widgets/pulls']);
  });

  it('GitLab: one POST to /projects/{url-encoded path}/merge_requests with PRIVATE-TOKEN; a nested group from an scp-like remote; web_url and iid come back', async () => {
    const opened = await openPullRequest({
      forge: 'gitlab',
      apiUrl: `${forge.url}/api/v4/`,
      remoteUrl: 'git@gitlab.example.org:platform/tools/widgets.git',
      token: TOKEN,
      ...fields,
    });
    expect(forge.requests).toHaveLength(1);
    const [request] = forge.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/api/v4/projects/platform%2Ftools%2Fwidgets/merge_requests',
      body: { source_branch: fields.head, target_branch: fields.base, title: fields.title, description: fields.body },
    });
    expect(request!.headers['private-token']).toBe(TOKEN);
    expect(request!.headers.authorization).toBeUndefined();
    expect(opened).toEqual({ url: `${forge.url}/platform/tools/widgets/-/merge_requests/${opened.number}`, number: expect.any(Number) });
  });

  it('Gitea: one POST to /api/v1/repos/{owner}/{repo}/pulls with "Authorization: token"; from an ssh:// remote with the default API path', async () => {
    const opened = await openPullRequest({
      forge: 'gitea',
      apiUrl: `${forge.url}/api/v1`,
      remoteUrl: 'ssh://git@gitea.example.org:2222/acme/widgets.git',
      token: TOKEN,
      ...fields,
    });
    expect(forge.requests).toHaveLength(1);
    const [request] = forge.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/repos/acme/widgets/pulls', body: fields });
    expect(request!.headers.authorization).toBe(`token ${TOKEN}`);
    expect(opened).toEqual({ url: `${forge.url}/acme/widgets/pulls/${opened.number}`, number: expect.any(Number) });
  });

  it("a 422 names the status and the forge's message, with the token cut out even when the forge echoes it", async () => {
    for (const [kind, apiUrl] of [
      ['github', forge.url],
      ['gitlab', `${forge.url}/api/v4`],
      ['gitea', `${forge.url}/api/v1`],
    ] as const) {
      forge.failWith(422, `A pull request already exists for acme:looplane/fix-parser (sent with ${TOKEN})`);
      const error = await refusal(openPullRequest({ forge: kind, apiUrl, remoteUrl: 'https://git.example.org/acme/widgets', token: TOKEN, ...fields }));
      expect(error.status).toBe(422);
      expect(error.forge).toBe(kind);
      expect(error.message).toMatch(
        /^(GitHub|GitLab|Gitea) answered 422 .*A pull request already exists for acme:looplane\/fix-parser \(sent with \[redacted\]\)/,
      );
    }
    expect(forge.requests).toHaveLength(3);
  });

  it("a wrong token gets the forge's 401, named as such", async () => {
    const error = await refusal(
      openPullRequest({ forge: 'github', apiUrl: forge.url, remoteUrl: 'https://github.com/acme/widgets', token: 'not-the-token', ...fields }),
    );
    expect(error).toMatchObject({ status: 401, message: 'GitHub answered 401 Unauthorized: Bad credentials' });
  });

  it('follows a 307 on the same host, and never a redirect to another host: the token is not sent there', async () => {
    forge.redirectNext(`${forge.url}/repos/acme/renamed/pulls`);
    const opened = await openPullRequest({ forge: 'github', apiUrl: forge.url, remoteUrl: 'https://github.com/acme/widgets', token: TOKEN, ...fields });
    expect(opened.url).toMatch(/\/acme\/renamed\/pull\/\d+$/);
    expect(forge.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/repos/acme/widgets/pulls', `Bearer ${TOKEN}`],
      ['/repos/acme/renamed/pulls', `Bearer ${TOKEN}`],
    ]);

    forge.redirectNext(`${elsewhere.url}/repos/acme/widgets/pulls`);
    const error = await refusal(openPullRequest({ forge: 'github', apiUrl: forge.url, remoteUrl: 'https://github.com/acme/widgets', token: TOKEN, ...fields }));
    expect(error.message).toMatch(/^GitHub answered 307 with a redirect to 127\.0\.0\.1:\d+; the token is sent only to 127\.0\.0\.1:\d+$/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a forge that does not answer fails after the timeout, naming it', async () => {
    forge.stall();
    const started = Date.now();
    const error = await refusal(
      openPullRequest({
        forge: 'gitea',
        apiUrl: `${forge.url}/api/v1`,
        remoteUrl: 'https://git.example.org/acme/widgets',
        token: TOKEN,
        timeoutMs: 300,
        ...fields,
      }),
    );
    expect(error).toMatchObject({ status: null, message: `Gitea did not answer within 0.3 s (${forge.url}/api/v1)` });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses, before any request, a remote that names no repository on the forge and an API URL that would send the token in the clear', async () => {
    const cases: [Parameters<typeof openPullRequest>[0], RegExp][] = [
      [{ forge: 'github', remoteUrl: 'https://github.com/acme', token: TOKEN, ...fields }, /path must be owner\/repository/],
      [{ forge: 'gitea', remoteUrl: 'https://git.example.org/a/b/c.git', token: TOKEN, ...fields }, /path must be owner\/repository/],
      [{ forge: 'gitlab', remoteUrl: 'file:///srv/repos/widgets.git', token: TOKEN, ...fields }, /file:\/\/ remote is on no forge/],
      [{ forge: 'github', remoteUrl: `https://x:${TOKEN}@github.com/acme/widgets`, token: TOKEN, ...fields }, /must not hold a password or token/],
      [{ forge: 'github', apiUrl: 'http://api.example.org', remoteUrl: 'https://github.com/acme/widgets', token: TOKEN, ...fields }, /must be https/],
    ];
    for (const [options, message] of cases) expect((await refusal(openPullRequest(options))).message).toMatch(message);
    expect(forge.requests).toEqual([]);
  });
});
