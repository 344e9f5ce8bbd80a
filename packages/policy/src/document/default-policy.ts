import { type PolicyDocument, type PolicyDocumentInput, policyDocumentSchema } from './policy-schema';

/**
 * Programs (and subcommands) the default policy lets an agent run without asking: they read, list,
 * build or test. A line runs unasked only if every command in it is here and nothing in it is
 * destructive, unparsable or dynamic (those rules come first). Many of them run code the pre-check
 * cannot read (node, python3, npm test, make test, git with the repository's config): those lines
 * are allowed by `shell-safe-runs-code`, only because their effect is decided after they run.
 */
export const SAFE_COMMANDS = [
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'find', 'echo', 'printf', 'pwd', 'cd', 'which', 'whoami',
  'date', 'true', 'false', 'test', '[', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'file', 'stat', 'du', 'df', 'tree',
  'basename', 'dirname', 'realpath', 'readlink', 'jq', 'sed', 'awk', 'xargs', 'mkdir', 'touch', 'tee', 'sleep', 'seq',
  'git status', 'git diff', 'git log', 'git show', 'git branch', 'git rev-parse', 'git ls-files', 'git blame', 'git grep',
  'npm test', 'npm run test', 'npm run lint', 'npm run build', 'npm run typecheck', 'npm ls', 'npx vitest', 'npx tsc',
  'node', 'python', 'python3', 'pytest', 'go test', 'go build', 'go vet', 'cargo test', 'cargo build', 'make test',
];

const input: PolicyDocumentInput = {
  version: 1,
  name: 'default',
  description: 'Read freely, write inside the workspace, run a safe list of commands; everything destructive or unclassifiable needs an approver.',
  default: 'deny',
  rules: [
    // Effect rules are decided on a mutating call's result, after it ran: whatever made the change
    // (rm, awk system(), a Python script, a planted git hook), the change is held with its diff.
    {
      id: 'effect-deletes',
      description: 'A call that deleted workspace files, however it did it: rolled back and held with its diff until an approver decides.',
      match: { tool: ['shell', 'write_file', 'edit_file'], effect: { deletes: true } },
      outcome: 'require_approval',
      reason: 'the call deleted files',
      risk: 'high',
    },
    {
      id: 'effect-truncates',
      description: 'A call that truncated workspace files (emptied them, or kept only a prefix): rolled back and held with its diff.',
      match: { tool: ['shell', 'write_file', 'edit_file'], effect: { truncates: true } },
      outcome: 'require_approval',
      reason: 'the call truncated files',
      risk: 'high',
    },
    { id: 'read-workspace', description: 'Reading, listing and searching inside the workspace.', match: { tool: ['read_file', 'list_files', 'search_files'], paths: ['**'] }, outcome: 'allow' },
    {
      id: 'write-git-internals',
      description: 'A write under .git can install a hook that runs later.',
      match: { tool: ['write_file', 'edit_file'], paths: ['.git/**'] },
      outcome: 'require_approval',
      risk: 'high',
    },
    { id: 'write-workspace', description: 'Writing anywhere else inside the workspace.', match: { tool: ['write_file', 'edit_file'], paths: ['**'] }, outcome: 'allow' },
    {
      id: 'shell-unparsable',
      match: { tool: 'shell', unparsable: true },
      outcome: 'require_approval',
      reason: 'the command could not be parsed',
      risk: 'medium',
    },
    {
      id: 'shell-unclassifiable',
      match: { tool: 'shell', dynamic: true },
      outcome: 'require_approval',
      reason: 'what the command runs cannot be known before it runs',
      risk: 'medium',
    },
    { id: 'shell-destructive', match: { tool: 'shell', destructive: true }, outcome: 'require_approval', reason: 'the command is destructive', risk: 'high' },
    { id: 'shell-safe', description: 'Commands on the safe list that run no code beyond what the line shows.', match: { tool: 'shell', commands: SAFE_COMMANDS }, outcome: 'allow' },
    {
      id: 'shell-safe-runs-code',
      description:
        'Commands on the safe list that run code the pre-check cannot read (a script, npm scripts, a Makefile, git config). Allowed inside the sandbox only because every mutating call\'s effect is checked after it runs: deletions and truncations are rolled back and held for an approver.',
      match: { tool: 'shell', commands: SAFE_COMMANDS, runsCode: true },
      outcome: 'allow',
    },
    { id: 'shell-other', match: { tool: 'shell' }, outcome: 'require_approval', reason: 'the command is not on the safe list', risk: 'medium' },
    { id: 'http-egress', description: 'HTTP only to hosts in the egress allowlist.', match: { tool: 'http_request', egress: true }, outcome: 'allow' },
    { id: 'delegate', description: 'Delegation along the graph; edges carry their own budgets and approval rules.', match: { tool: 'delegate' }, outcome: 'allow' },
    { id: 'mcp', match: { tool: 'mcp:*' }, outcome: 'require_approval', reason: 'MCP tools need an approver until a rule allows them', risk: 'medium' },
  ],
  egress: { allow: [] },
  models: { allowedEndpoints: ['*'] },
  sandbox: { minimumDriver: 'bwrap' },
  approvals: { fourEyes: false, expiresAfterMinutes: 24 * 60, expiryOutcome: 'reject' },
  // Spelled out so the default is readable here; the same numbers apply to a document that leaves the section out.
  breakers: {
    repeatCall: { times: 8, windowTurns: 12 },
    noProgress: { turns: 40 },
    spendRate: { perSession: { costMicros: 5_000_000, tokens: 2_000_000 }, perGraphRun: { costMicros: 20_000_000, tokens: 10_000_000 } },
    fanOut: { maxInFlight: 16 },
  },
};

/** The policy a new team starts with (already parsed, so every section is filled in). */
export const defaultPolicy: PolicyDocument = policyDocumentSchema.parse(input);
