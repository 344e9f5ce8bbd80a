import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DELIVERY_TOOL_SPECS, type ScriptTurn } from '@looplane/engine';
import type { Tx } from './audit/audit.repository';
import { DEMO_TOOLS } from './seed-demo';
import { seedDemoPolicy } from './seed-demo-policy';
import { seedFauxAgent } from './seed-faux-agent';
import { DEMO_REPOSITORY_BUG } from './seed-repo-demo-files';

/** The branch the demo agent publishes its fix on. */
const DEMO_REPOSITORY_BRANCH = 'fix/slugify';

const call = (say: string, tool: string, args: Record<string, string>): ScriptTurn => ({ say, calls: [{ tool, args }] });

/**
 * Real work on a repository, offline: the run starts from the demo repository (cloned by the
 * worker), and the script reads the failing test, runs it, fixes the bug, runs it again, exports a
 * patch and publishes the fix as a branch, which waits for an approver under the demo policy.
 */
const SCRIPT: ScriptTurn[] = [
  {
    say: 'Loading the file, shell and delivery tools.',
    calls: [{ tool: 'load_tools', args: { names: ['read_file', 'edit_file', 'list_files', 'shell', 'export_patch', 'publish_branch'] } }],
  },
  call('Reading the test.', 'read_file', { path: 'test/slugify.test.js' }),
  call('Running the tests, as AGENTS.md asks: one fails.', 'shell', { command: 'npm test' }),
  call('Reading the code under test.', 'read_file', { path: DEMO_REPOSITORY_BUG.path }),
  call('The first replace lacks the g flag, so only the first run of punctuation becomes a hyphen. Fixing it.', 'edit_file', {
    path: DEMO_REPOSITORY_BUG.path,
    old_string: DEMO_REPOSITORY_BUG.broken,
    new_string: DEMO_REPOSITORY_BUG.fixed,
  }),
  call('Running the tests again.', 'shell', { command: 'npm test' }),
  call('Exporting the change as a patch.', 'export_patch', {}),
  call(`Publishing the fix as ${DEMO_REPOSITORY_BRANCH} (an approver decides first).`, 'publish_branch', {
    branch: DEMO_REPOSITORY_BRANCH,
    message: 'Fix slugify',
  }),
];

const fauxRepo = {
  name: 'faux-repo',
  kind: 'faux' as const,
  model: 'faux-1',
  contextWindow: 32000,
  maxOutputTokens: 1024,
  config: {
    thinkMs: 300,
    finalText: `Fixed slugify: its first replace now has the g flag, so every run of punctuation becomes one hyphen. All tests pass; the fix is on ${DEMO_REPOSITORY_BRANCH}.`,
    script: SCRIPT,
  },
};

/**
 * The repository demo: the `faux-repo` endpoint and the `demo-repo` agent, whose runs start from
 * the bare repository at `repositoryPath` (made by `looplane start`), and a demo policy that lets
 * runs use the repositories beside it. Each is created when missing, like the other demo content,
 * so an installation seeded before this demo gains it on its next start.
 */
export async function seedRepoDemo(tx: Tx, teamId: string, repositoryPath: string): Promise<void> {
  await seedFauxAgent(tx, teamId, {
    endpoint: fauxRepo,
    agent: {
      name: 'demo-repo',
      description: `Fixes the failing test of the demo repository and publishes ${DEMO_REPOSITORY_BRANCH} once an approver agrees`,
      systemPrompt: 'You fix bugs in the repository you are given. Follow its AGENTS.md.',
      tools: [...DEMO_TOOLS, ...DELIVERY_TOOL_SPECS.map((spec) => ({ ...spec }))],
      workspace: { git: { url: pathToFileURL(repositoryPath).href } },
    },
  });
  await seedDemoPolicy(tx, teamId, `${pathToFileURL(dirname(repositoryPath)).href}/**`);
}
