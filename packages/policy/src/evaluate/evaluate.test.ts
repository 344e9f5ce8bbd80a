import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../document/parse-document';
import type { PolicyDocumentInput } from '../document/policy-schema';
import { evaluate, simulate } from './evaluate';
import { policyPortFrom } from './policy-port';

const policy = (rules: PolicyDocumentInput['rules'], extra: Partial<PolicyDocumentInput> = {}) => parsePolicyDocument({ version: 1, rules, ...extra });

describe('evaluate: rules and defaults', () => {
  it('denies by default and says so', () => {
    const decision = evaluate(policy([]), { tool: 'read_file', args: { path: 'a' } });
    expect(decision).toMatchObject({ outcome: 'deny', ruleId: 'default', risk: 'medium' });
    expect(decision.reason).toMatch(/default is deny/);
    expect(evaluate(policy([], { default: 'require_approval' }), { tool: 'x', args: {} })).toMatchObject({
      outcome: 'require_approval',
      approverRole: 'approver',
    });
  });

  it('applies the first matching rule, in order', () => {
    const rules: PolicyDocumentInput['rules'] = [
      { id: 'deny-secrets', match: { tool: 'read_file', paths: ['**/.env'] }, outcome: 'deny', reason: 'secrets stay secret' },
      { id: 'read-all', match: { tool: 'read_file', paths: ['**'] }, outcome: 'allow' },
    ];
    expect(evaluate(policy(rules), { tool: 'read_file', args: { path: 'app/.env' } })).toMatchObject({
      outcome: 'deny',
      ruleId: 'deny-secrets',
      reason: 'secrets stay secret',
    });
    expect(evaluate(policy([...rules].reverse()), { tool: 'read_file', args: { path: 'app/.env' } })).toMatchObject({ outcome: 'allow', ruleId: 'read-all' });
  });

  it('always allows load_tools, whatever the rules say', () => {
    const doc = policy([{ id: 'deny-all', match: { tool: '*' }, outcome: 'deny' }]);
    expect(evaluate(doc, { tool: 'load_tools', args: {} })).toMatchObject({ outcome: 'allow', ruleId: 'builtin' });
    expect(evaluate(doc, { tool: 'delegate', args: {} }).outcome).toBe('deny');
  });

  it('sets approverRole and risk from the rule', () => {
    const doc = policy([{ id: 'ask', match: { tool: 'delegate' }, outcome: 'require_approval', approverRole: 'admin', risk: 'critical' }]);
    expect(evaluate(doc, { tool: 'delegate', args: {} })).toMatchObject({ approverRole: 'admin', risk: 'critical' });
  });
});

describe('evaluate: file paths', () => {
  const doc = policy([
    { id: 'src-writes', match: { tool: ['write_file', 'edit_file'], paths: ['src/**', '!src/**/*.lock'] }, outcome: 'allow' },
    { id: 'reads', match: { tool: 'read_file', paths: ['**'] }, outcome: 'allow' },
  ]);
  const write = (path: string) => evaluate(doc, { tool: 'write_file', args: { path } }, { workspaceRoot: '/w' }).outcome;

  it('allows writes only under src/, minus excluded files', () => {
    expect(write('src/a.ts')).toBe('allow');
    expect(write('src/deep/er/b.ts')).toBe('allow');
    expect(write('/w/src/c.ts')).toBe('allow');
    expect(write('README.md')).toBe('deny');
    expect(write('src/pkg/yarn.lock')).toBe('deny');
  });

  it('never matches a path outside the workspace, however it is spelled', () => {
    for (const path of ['../src/a.ts', 'src/../../etc/passwd', '/etc/passwd', '~/src/a.ts', '/w/../src/a.ts', '/wx/src/a.ts']) {
      expect(write(path), path).toBe('deny');
    }
    expect(evaluate(doc, { tool: 'read_file', args: { path: '/w/../etc/passwd' } }, { workspaceRoot: '/w' }).outcome).toBe('deny');
  });

  it('explains a missing path', () => {
    expect(simulate(doc, { tool: 'write_file', args: {} }).trace[0]?.explanation).toBe('the call has no path string');
  });
});

describe('evaluate: http hosts', () => {
  const doc = policy(
    [
      { id: 'github', match: { tool: 'http_request', hosts: ['api.github.com:443', '*.githubusercontent.com'], methods: ['GET'] }, outcome: 'allow' },
      { id: 'egress', match: { tool: 'http_request', egress: true }, outcome: 'require_approval' },
    ],
    { egress: { allow: ['registry.npmjs.org'] } },
  );
  const http = (url: string, method = 'GET') => evaluate(doc, { tool: 'http_request', args: { url, method } });

  it('matches host, port, wildcard subdomains and method', () => {
    expect(http('https://api.github.com/repos').ruleId).toBe('github');
    expect(http('https://API.GitHub.com./repos').ruleId).toBe('github');
    expect(http('http://api.github.com/repos').ruleId).toBe('default');
    expect(http('https://api.github.com:8443/').ruleId).toBe('default');
    expect(http('https://raw.githubusercontent.com/x').ruleId).toBe('github');
    expect(http('https://githubusercontent.com/x').ruleId).toBe('default');
    expect(http('https://api.github.com/repos', 'post').ruleId).toBe('default');
  });

  it('is not fooled by user info, look-alike hosts or other schemes', () => {
    expect(http('https://api.github.com@evil.example/').ruleId).toBe('default');
    expect(http('https://api.github.com.evil.example/').ruleId).toBe('default');
    expect(http('file:///etc/passwd').ruleId).toBe('default');
    expect(http('not a url').ruleId).toBe('default');
  });

  it('checks the egress allowlist with egress: true', () => {
    expect(http('https://registry.npmjs.org/zod').ruleId).toBe('egress');
  });
});

describe('evaluate: http paths', () => {
  const doc = policy([
    {
      id: 'issues',
      match: { tool: 'http_request', methods: ['POST'], paths: ['/repos/*/*/issues/**', '!/repos/*/*/issues/*/reactions'] },
      outcome: 'require_approval',
    },
    { id: 'root', match: { tool: 'http_request', paths: ['/'] }, outcome: 'allow' },
    { id: 'files-only', match: { tool: ['read_file', 'http_request'], paths: ['src/**'] }, outcome: 'allow' },
  ]);
  const http = (url: string, method = 'POST') => simulate(doc, { tool: 'http_request', args: { url, method } });

  it('matches paths against the URL path, with "!" exclusions', () => {
    expect(http('https://api.github.com/repos/o/r/issues/1/comments').ruleId).toBe('issues');
    expect(http('https://api.github.com/repos/o/r/issues').ruleId).toBe('issues');
    expect(http('https://api.github.com/repos/o/r/issues/1/reactions').trace[0]?.explanation).toBe(
      '/repos/o/r/issues/1/reactions is excluded by a "!" pattern',
    );
    expect(http('https://api.github.com/repos/o/r/pulls').trace[0]?.explanation).toBe('/repos/o/r/pulls matches no path pattern');
    expect(http('https://api.github.com').ruleId).toBe('root');
    // Workspace-relative globs never match a URL path, which always starts with "/".
    expect(http('https://api.github.com/src/x', 'GET').ruleId).toBe('default');
    // File tools keep matching workspace paths.
    expect(evaluate(doc, { tool: 'read_file', args: { path: 'src/a.ts' } }).ruleId).toBe('files-only');
  });
});

describe('evaluate: MCP tools and arguments', () => {
  const doc = policy([
    { id: 'gh-read', match: { tool: ['mcp:github:get_*', 'mcp:github:list_*'] }, outcome: 'allow' },
    { id: 'gh-issue', match: { tool: 'mcp:github:create_issue', args: { repo: 'looplane/*' } }, outcome: 'allow' },
    { id: 'mcp-other', match: { tool: 'mcp:*' }, outcome: 'require_approval' },
  ]);
  const mcp = (tool: string, args: Record<string, unknown> = {}) => evaluate(doc, { tool, args }).ruleId;

  it('matches tool globs across the server:tool separator', () => {
    expect(mcp('mcp:github:get_issue')).toBe('gh-read');
    expect(mcp('mcp:github:list_repos')).toBe('gh-read');
    expect(mcp('mcp:github:delete_repo')).toBe('mcp-other');
    expect(mcp('mcp:slack:post')).toBe('mcp-other');
    expect(mcp('github:get_issue')).toBe('default');
  });

  it('matches string arguments by glob', () => {
    expect(mcp('mcp:github:create_issue', { repo: 'looplane/core' })).toBe('gh-issue');
    expect(mcp('mcp:github:create_issue', { repo: 'other/core' })).toBe('mcp-other');
    expect(mcp('mcp:github:create_issue', { repo: 42 })).toBe('mcp-other');
  });
});

describe('evaluate: shell rules', () => {
  it('keeps an allow rule from matching destructive, dynamic or unparsable lines unless it opts in', () => {
    const doc = policy([{ id: 'all-shell', match: { tool: 'shell' }, outcome: 'allow' }]);
    const run = (command: string) => evaluate(doc, { tool: 'shell', args: { command } });
    expect(run('ls').outcome).toBe('allow');
    expect(run('rm -rf /')).toMatchObject({ outcome: 'deny', ruleId: 'default' });
    expect(run('$(echo rm) x').outcome).toBe('deny');
    expect(run('ls "x').outcome).toBe('deny');
    expect(run('node x.js')).toMatchObject({ outcome: 'deny', ruleId: 'default' });
    const optIn = policy([
      { id: 'yolo', match: { tool: 'shell', destructive: true }, outcome: 'allow' },
      { id: 'scripts', match: { tool: 'shell', runsCode: true }, outcome: 'allow' },
    ]);
    expect(evaluate(optIn, { tool: 'shell', args: { command: 'rm x' } }).outcome).toBe('allow');
    expect(evaluate(optIn, { tool: 'shell', args: { command: 'node x.js' } })).toMatchObject({
      outcome: 'allow',
      ruleId: 'scripts',
      reason: 'allowed by policy rule "scripts": node x.js: node runs JavaScript from the script x.js',
    });
  });

  it('refuses runsCode on a rule whose tool is not shell', () => {
    expect(() => policy([{ id: 'x', match: { tool: 'read_file', runsCode: true }, outcome: 'allow' }])).toThrow(/runsCode/);
  });

  it('blocks with anyCommand and allows subcommands with commands', () => {
    const doc = policy([
      { id: 'no-curl', match: { tool: 'shell', anyCommand: ['curl', 'wget'] }, outcome: 'deny', reason: 'use http_request' },
      // git runs what the repository's config names, so an allow rule for it opts in to runsCode.
      { id: 'git-read', match: { tool: 'shell', commands: ['git status', 'git log', 'grep'], runsCode: true }, outcome: 'allow' },
    ]);
    const run = (command: string) => evaluate(doc, { tool: 'shell', args: { command } });
    expect(run('ls && curl x')).toMatchObject({ outcome: 'deny', ruleId: 'no-curl' });
    expect(run('sudo wget x').ruleId).toBe('no-curl');
    expect(run('git log | grep fix').ruleId).toBe('git-read');
    expect(run('git commit -m x').ruleId).toBe('default');
  });

  it('traces every rule tried and why', () => {
    const doc = policy([
      { id: 'reads', match: { tool: 'read_file' }, outcome: 'allow' },
      { id: 'safe', match: { tool: 'shell', commands: ['ls'] }, outcome: 'allow' },
      { id: 'ask', match: { tool: 'shell' }, outcome: 'require_approval' },
    ]);
    const result = simulate(doc, { tool: 'shell', args: { command: 'ls; make' } });
    expect(result.trace).toEqual([
      { ruleId: 'reads', matched: false, explanation: 'tool shell does not match "read_file"' },
      {
        ruleId: 'safe',
        matched: false,
        explanation: 'the line is running code the analysis cannot read (runsCode), and an allow rule matches that only with runsCode: true',
      },
      { ruleId: 'ask', matched: true, explanation: 'matched: tool shell' },
    ]);
    expect(result.analysis?.commands.map((c) => c.name)).toEqual(['ls', 'make']);
    expect(simulate(doc, { tool: 'shell', args: { command: 'rm x' } }).trace[1]?.explanation).toBe(
      'the line is destructive, and an allow rule matches that only with destructive: true',
    );
  });
});

describe('policyPortFrom', () => {
  it('maps decisions onto the engine port', async () => {
    const doc = policy([
      { id: 'ls', match: { tool: 'shell', commands: ['ls'] }, outcome: 'allow' },
      { id: 'ask', match: { tool: 'shell', destructive: true }, outcome: 'require_approval', risk: 'critical', approverRole: 'admin' },
    ]);
    const port = policyPortFrom(doc);
    const call = (command: string) => port.evaluate({ callId: 'c1', name: 'shell', args: { command } });
    await expect(call('ls')).resolves.toEqual({ decision: 'allow', ruleId: 'ls' });
    await expect(call('rm x')).resolves.toMatchObject({ decision: 'require_approval', role: 'admin', risk: 'high', ruleId: 'ask' });
    await expect(call('make')).resolves.toMatchObject({ decision: 'deny', ruleId: 'default' });
  });
});

describe('evaluate: isolation levels', () => {
  const runsCodeInGvisor: PolicyDocumentInput['rules'] = [
    { id: 'code-in-gvisor', match: { tool: 'shell', runsCode: true }, outcome: 'allow', minimumDriver: 'gvisor' },
    { id: 'shell', match: { tool: 'shell' }, outcome: 'allow' },
  ];

  it("a rule's minimumDriver names the level of the calls it decides; other calls name none", () => {
    const document = policy(runsCodeInGvisor);
    expect(evaluate(document, { tool: 'shell', args: { command: 'python3 -c "print(1)"' } })).toMatchObject({
      outcome: 'allow',
      ruleId: 'code-in-gvisor',
      isolation: 'gvisor',
    });
    expect(evaluate(document, { tool: 'shell', args: { command: 'ls -la' } })).not.toHaveProperty('isolation');
  });

  it('the simulator reports the least isolation every call that may run gets: the rule or the document minimum, the stronger', () => {
    const document = policy(runsCodeInGvisor, { sandbox: { minimumDriver: 'podman' } });
    expect(simulate(document, { tool: 'shell', args: { command: 'python3 -c "print(1)"' } }).sandbox).toBe('gvisor');
    expect(simulate(document, { tool: 'shell', args: { command: 'ls' } }).sandbox).toBe('podman');
    expect(simulate(policy([]), { tool: 'shell', args: { command: 'ls' } })).toMatchObject({ outcome: 'deny', sandbox: null });
    // A rule asking for less than the document's minimum still gets the minimum.
    const weaker = policy([{ id: 'any', match: { tool: 'shell' }, outcome: 'allow', minimumDriver: 'bwrap' }], { sandbox: { minimumDriver: 'gvisor' } });
    expect(evaluate(weaker, { tool: 'shell', args: { command: 'ls' } })).toMatchObject({ isolation: 'gvisor' });
  });

  it('the port passes the level to the engine for allow and require_approval', async () => {
    const port = policyPortFrom(policy([{ id: 'ask', match: { tool: 'shell' }, outcome: 'require_approval', minimumDriver: 'gvisor' }]));
    expect(await port.evaluate({ callId: 'c1', name: 'shell', args: { command: 'ls' } })).toMatchObject({ decision: 'require_approval', isolation: 'gvisor' });
  });

  it('refuses minimumDriver on a deny rule, on an effect rule, and for a driver the scale does not know', () => {
    const bad = (rule: Record<string, unknown>) => () =>
      parsePolicyDocument({ version: 1, rules: [{ id: 'r', match: { tool: 'shell' }, outcome: 'allow', ...rule }] });
    expect(bad({ outcome: 'deny', minimumDriver: 'gvisor' })).toThrow(/minimumDriver applies to calls a rule lets run/);
    expect(bad({ match: { tool: 'shell', effect: { deletions: { atLeast: 1 } } }, minimumDriver: 'gvisor' })).toThrow(
      /effect rule is decided after the call ran/,
    );
    expect(bad({ minimumDriver: 'docker' })).toThrow(/minimumDriver/);
  });
});
