import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../document/default-policy';
import { parsePolicyDocument } from '../document/parse-document';
import type { PolicyDocumentInput } from '../document/policy-schema';
import { decideRequest } from './decide-request';
import { evaluate } from './evaluate';

const policy = (rules: PolicyDocumentInput['rules'], extra: Partial<PolicyDocumentInput> = {}) =>
  parsePolicyDocument({ version: 1, default: 'allow', egress: { allow: ['api.github.com', 'example.com:8080'] }, rules, ...extra });

const github = policy([
  { id: 'no-admin', match: { tool: 'http_request', hosts: ['api.github.com'], paths: ['/admin/**'] }, outcome: 'deny', reason: 'the admin API is off limits' },
  {
    id: 'issue-writes',
    match: { tool: 'http_*', hosts: ['api.github.com'], methods: ['POST', 'PATCH'], paths: ['/repos/*/*/issues/**'] },
    outcome: 'require_approval',
    approverRole: 'admin',
  },
  { id: 'github-reads', match: { tool: 'http_request', hosts: ['api.github.com'], methods: ['GET', 'HEAD'] }, outcome: 'allow' },
  { id: 'github-other', match: { tool: '*', hosts: ['api.github.com'] }, outcome: 'require_approval' },
]);

const http = (doc: typeof github, method: string, url: string) => decideRequest(doc, { kind: 'http', method, url });

describe('decideRequest: a request the proxy sees whole', () => {
  it('decides as an http_request call with that method and URL would be', () => {
    for (const [method, url] of [
      ['GET', 'https://api.github.com/repos/o/r'],
      ['POST', 'https://api.github.com/repos/o/r/issues/1/comments'],
      ['DELETE', 'https://api.github.com/repos/o/r'],
      ['GET', 'https://api.github.com/admin/users'],
      ['GET', 'http://example.com:8080/'],
    ] as const) {
      const { message: _message, ...decision } = http(github, method, url);
      expect(decision).toEqual(evaluate(github, { tool: 'http_request', args: { method, url } }));
    }
  });

  it('allows what a rule allows', () => {
    expect(http(github, 'GET', 'https://api.github.com/repos/o/r')).toMatchObject({
      outcome: 'allow',
      ruleId: 'github-reads',
      message: 'allowed by policy rule "github-reads"',
    });
  });

  it('refuses a denied path naming the rule and its reason', () => {
    const decision = http(github, 'GET', 'https://api.github.com/admin/users');
    expect(decision).toMatchObject({ outcome: 'deny', ruleId: 'no-admin' });
    expect(decision.message).toBe('denied by policy rule "no-admin": the admin API is off limits');
  });

  it('says a require_approval request needs an approver and that http_request is the way to ask', () => {
    const decision = http(github, 'POST', 'https://api.github.com/repos/o/r/issues/7/comments');
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'issue-writes', approverRole: 'admin' });
    expect(decision.message).toBe(
      'policy rule "issue-writes" requires approval; this request needs an approver (admin), and a request through the egress proxy cannot wait for an approver: make it with the http_request tool, which asks for one',
    );
    // `tool: '*'` applies too.
    expect(http(github, 'DELETE', 'https://api.github.com/repos/o/r')).toMatchObject({ outcome: 'require_approval', ruleId: 'github-other' });
  });

  it('matches the method case-insensitively and the path whatever its spelling', () => {
    expect(http(github, 'post', 'https://api.github.com/repos/o/r/issues/1').ruleId).toBe('issue-writes');
    // Dot segments, %2e spellings, escaped letters and escaped slashes do not hide a path.
    for (const path of ['/x/../admin/users', '/x/%2e%2e/admin/u', '/%61dmin/u', '/admin%2Fusers', '//admin/u', '/repos%2F..%2Fadmin/u']) {
      expect(http(github, 'GET', `https://api.github.com${path}`).ruleId, path).toBe('no-admin');
    }
    expect(http(github, 'GET', 'https://api.github.com/administrator').ruleId).toBe('github-reads');
    // The query is not part of the path.
    expect(http(github, 'GET', 'https://api.github.com/repos?next=/admin/x').ruleId).toBe('github-reads');
  });

  it('applies http_request rules only: shell and file rules do not decide a proxied request', () => {
    const doc = policy(
      [
        { id: 'no-curl', match: { tool: 'shell', anyCommand: ['curl'] }, outcome: 'deny' },
        { id: 'files', match: { tool: 'read_file', paths: ['**'] }, outcome: 'deny' },
        { id: 'effects', match: { tool: '*', effect: { deletes: true } }, outcome: 'deny' },
        { id: 'web', match: { tool: 'http_request', egress: true }, outcome: 'allow' },
      ],
      { default: 'deny' },
    );
    expect(http(doc, 'GET', 'https://api.github.com/')).toMatchObject({ outcome: 'allow', ruleId: 'web' });
    // Off the egress list: the default decides, and says so.
    const off = http(doc, 'GET', 'https://elsewhere.example/');
    expect(off).toMatchObject({ outcome: 'deny', ruleId: 'default' });
    expect(off.message).toBe("no policy rule matches this http_request call; the policy's default is deny");
  });

  it('treats an args condition on what the proxy does not decide on (headers, body) as one it cannot check', () => {
    const doc = policy([
      { id: 'no-tokens', match: { tool: 'http_request', hosts: ['api.github.com'], args: { body: '*token*' } }, outcome: 'deny' },
      { id: 'by-url', match: { tool: 'http_request', args: { url: 'https://api.github.com/repos/*' } }, outcome: 'allow' },
    ]);
    const decision = http(doc, 'POST', 'https://api.github.com/repos/x');
    expect(decision).toMatchObject({ outcome: 'deny', ruleId: 'no-tokens' });
    expect(decision.message).toBe(
      'the proxy sees a request\'s method and URL, not its headers or body, and policy rule "no-tokens" denies some requests to api.github.com:443; its args.body cannot be checked at the proxy, so the request is refused; the http_request tool is decided on the whole request',
    );
    // An args condition on the URL is checked, as for the tool.
    expect(http(doc, 'GET', 'https://example.com:8080/repos/x')).toMatchObject({ outcome: 'allow', ruleId: 'default' });
    expect(http(policy([doc.rules[1]!], { default: 'deny' }), 'GET', 'https://api.github.com/repos/x')).toMatchObject({ outcome: 'allow', ruleId: 'by-url' });
  });

  it('a default of require_approval also points at http_request', () => {
    const decision = http(policy([], { default: 'require_approval' }), 'GET', 'https://api.github.com/');
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'default' });
    expect(decision.message).toMatch(/needs an approver \(approver\).*http_request tool/);
  });

  it('the default policy lets allow-listed hosts through and nothing else', () => {
    const doc = parsePolicyDocument({ ...defaultPolicy, egress: { allow: ['registry.npmjs.org'] } });
    expect(http(doc, 'GET', 'https://registry.npmjs.org/zod')).toMatchObject({ outcome: 'allow', ruleId: 'http-egress' });
    expect(http(doc, 'POST', 'https://example.com/')).toMatchObject({ outcome: 'deny', ruleId: 'default' });
    expect(decideRequest(doc, { kind: 'connect', host: 'registry.npmjs.org', port: 443 })).toMatchObject({ outcome: 'allow', ruleId: 'http-egress' });
  });
});

describe('decideRequest: a CONNECT tunnel (host and port only)', () => {
  const tunnel = (doc: typeof github, host: string, port = 443) => decideRequest(doc, { kind: 'connect', host, port });

  it('is decided by the first rule that surely applies when that rule refuses', () => {
    // no-admin and issue-writes might apply; github-other surely does, and asks for an approver.
    const decision = tunnel(github, 'api.github.com');
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'github-other' });
    expect(decision.message).toMatch(/^policy rule "github-other" requires approval; this request needs an approver/);
  });

  it('is refused when a rule before the deciding one might refuse some request in it', () => {
    // no-admin (a path) cannot be checked: some request in the tunnel might be one it denies.
    const doc = policy([
      {
        id: 'no-admin',
        match: { tool: 'http_request', hosts: ['api.github.com'], paths: ['/admin/**'] },
        outcome: 'deny',
        reason: 'the admin API is off limits',
      },
      { id: 'github', match: { tool: 'http_request', hosts: ['api.github.com'] }, outcome: 'allow' },
    ]);
    const decision = tunnel(doc, 'api.github.com');
    expect(decision).toMatchObject({ outcome: 'deny', ruleId: 'no-admin' });
    expect(decision.message).toBe(
      'a CONNECT tunnel shows only host and port, and policy rule "no-admin" denies some requests to api.github.com:443 (the admin API is off limits); its paths cannot be checked inside a tunnel, so the tunnel is refused; the http_request tool is decided on the whole request',
    );
    expect(decision.reason).toMatch(/^a CONNECT tunnel shows only host and port/);
  });

  it('names a require_approval rule it cannot check, and points at http_request', () => {
    const doc = policy([
      { id: 'writes', match: { tool: 'http_request', hosts: ['api.github.com'], methods: ['POST'] }, outcome: 'require_approval' },
      { id: 'rest', match: { tool: 'http_request', hosts: ['api.github.com'] }, outcome: 'allow' },
    ]);
    const decision = tunnel(doc, 'api.github.com');
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'writes', approverRole: 'approver' });
    expect(decision.message).toMatch(
      /^a CONNECT tunnel shows only host and port, and policy rule "writes" requires approval for some requests to api.github.com:443; its methods cannot be checked/,
    );
    expect(decision.message).toMatch(
      /needs an approver \(approver\), and a request through the egress proxy cannot wait for an approver: make it with the http_request tool/,
    );
  });

  it('an unknown method matches no methods list: an allow rule with methods never allows a tunnel', () => {
    const doc = policy([{ id: 'reads', match: { tool: 'http_request', hosts: ['api.github.com'], methods: ['GET', 'CONNECT'] }, outcome: 'allow' }], {
      default: 'deny',
    });
    expect(tunnel(doc, 'api.github.com')).toMatchObject({ outcome: 'deny', ruleId: 'default' });
    // An allow rule it cannot check does not stop a refusal after it either.
    const after = policy([
      { id: 'reads', match: { tool: 'http_request', methods: ['GET'] }, outcome: 'allow' },
      { id: 'host', match: { tool: 'http_request', hosts: ['api.github.com'] }, outcome: 'deny' },
    ]);
    expect(tunnel(after, 'api.github.com')).toMatchObject({ outcome: 'deny', ruleId: 'host' });
  });

  it('is allowed when every rule that could apply allows, and decided by host conditions it can check', () => {
    const doc = policy([
      { id: 'other-host-writes', match: { tool: 'http_request', hosts: ['example.com'], methods: ['POST'] }, outcome: 'deny' },
      { id: 'off-list', match: { tool: 'http_request', egress: false }, outcome: 'deny', reason: 'not on the list' },
      { id: 'github', match: { tool: 'http_*', hosts: ['api.github.com:443'] }, outcome: 'allow' },
      { id: 'later', match: { tool: 'http_request', hosts: ['api.github.com'], paths: ['/admin/**'] }, outcome: 'deny' },
    ]);
    // A rule for another host, and rules after the deciding one, do not matter.
    expect(tunnel(doc, 'api.github.com')).toMatchObject({ outcome: 'allow', ruleId: 'github' });
    expect(tunnel(doc, 'elsewhere.example')).toMatchObject({
      outcome: 'deny',
      ruleId: 'off-list',
      message: 'denied by policy rule "off-list": not on the list',
    });
    // Port 80 is not github's 443: the default (allow) would decide, but `later` now comes before it.
    expect(tunnel(doc, 'api.github.com', 80)).toMatchObject({ outcome: 'deny', ruleId: 'later' });
    expect(tunnel(doc, 'example.com', 8080)).toMatchObject({ outcome: 'deny', ruleId: 'other-host-writes' });
    expect(tunnel(policy([doc.rules[2]!]), 'api.github.com', 80)).toMatchObject({ outcome: 'allow', ruleId: 'default' });
  });

  it('treats an args condition as one it cannot check', () => {
    const doc = policy([
      { id: 'no-uploads', match: { tool: 'http_request', args: { url: 'https://uploads.github.com/*' } }, outcome: 'deny' },
      { id: 'all', match: { tool: '*' }, outcome: 'allow' },
    ]);
    expect(tunnel(doc, 'uploads.github.com')).toMatchObject({ outcome: 'deny', ruleId: 'no-uploads' });
    expect(tunnel(doc, 'uploads.github.com').message).toMatch(/its args cannot be checked/);
  });

  it('ignores shell-only rules, whatever their tool glob', () => {
    const doc = policy([
      { id: 'shell-curl', match: { tool: '*', anyCommand: ['curl'] }, outcome: 'deny' },
      { id: 'shell-any', match: { tool: 'shell' }, outcome: 'deny' },
    ]);
    expect(tunnel(doc, 'api.github.com')).toMatchObject({ outcome: 'allow', ruleId: 'default' });
  });
});
