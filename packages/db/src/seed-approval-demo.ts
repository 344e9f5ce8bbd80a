import type { Tx } from './audit/audit.repository';
import { seedFauxAgent } from './seed-faux-agent';

const shellTool = {
  name: 'shell',
  description: 'Run a command in the sandbox, in the workspace (mounted at /workspace).',
  idempotent: false,
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', minLength: 1, description: 'A command line, run by /bin/sh -c' } },
    required: ['command'],
  },
};

/**
 * A faux endpoint whose script deletes a build directory with `rm -rf`: the team's default policy
 * holds that call for an approver, so a run of `demo-cleanup` shows an approval gate (the inbox,
 * an edit of the command, the run going on). The last step lists what is left.
 */
const fauxCleanup = {
  name: 'faux-cleanup',
  kind: 'faux' as const,
  model: 'faux-1',
  contextWindow: 32000,
  maxOutputTokens: 1024,
  config: {
    thinkMs: 200,
    finalText: 'Cleanup done.',
    script: [
      { say: 'Loading the shell.', calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] },
      { say: 'Making a build directory to clean.', calls: [{ tool: 'shell', args: { command: 'mkdir -p build/cache && touch build/cache/a build/keep' } }] },
      { say: 'Removing the build directory.', calls: [{ tool: 'shell', args: { command: 'rm -rf build' } }] },
      { say: 'Listing what is left.', calls: [{ tool: 'shell', args: { command: 'ls -R build' } }] },
    ],
  },
};

/** The approval-gate demo (endpoint and agent), created when missing, like the other demo content. */
export async function seedApprovalDemo(tx: Tx, teamId: string): Promise<void> {
  await seedFauxAgent(tx, teamId, {
    endpoint: fauxCleanup,
    agent: {
      name: 'demo-cleanup',
      description: 'Runs `rm -rf build` in its sandbox: the policy holds it for an approver',
      systemPrompt: 'You keep the workspace tidy.',
      tools: [shellTool],
    },
  });
}
