import type { Tx } from './audit/audit.repository';
import { seedFauxAgent } from './seed-faux-agent';

const tools = [
  {
    name: 'shell',
    description: 'Run a command in the sandbox, in the workspace (mounted at /workspace).',
    idempotent: false,
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1, description: 'A command line, run by /bin/sh -c' } },
      required: ['command'],
    },
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a file in the workspace with the given content.',
    idempotent: false,
    parameters: { type: 'object', properties: { path: { type: 'string', minLength: 1 }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
];

const CLEANER = 'import shutil\n\n# Tidy up: the build output goes.\nshutil.rmtree("build")\nprint("cleaned")\n';

/**
 * A faux endpoint whose agent deletes a directory from a Python script it writes first: the
 * command line (`python3 clean.py`) says nothing about it, so the call runs, and the policy's
 * effect check rolls the deletion back and holds it, with its diff, for an approver.
 */
const fauxScriptCleanup = {
  name: 'faux-script-cleanup',
  kind: 'faux' as const,
  model: 'faux-1',
  contextWindow: 32000,
  maxOutputTokens: 1024,
  config: {
    thinkMs: 200,
    finalText: 'Tidy-up done.',
    script: [
      { say: 'Loading the tools.', calls: [{ tool: 'load_tools', args: { names: ['shell', 'write_file'] } }] },
      {
        say: 'Making a build directory.',
        calls: [
          { tool: 'write_file', args: { path: 'build/out.o', content: 'object code\n' } },
          { tool: 'write_file', args: { path: 'build/keep', content: 'keep me\n' } },
        ],
      },
      { say: 'Writing a tidy-up script.', calls: [{ tool: 'write_file', args: { path: 'clean.py', content: CLEANER } }] },
      { say: 'Running it.', calls: [{ tool: 'shell', args: { command: 'python3 clean.py' } }] },
      { say: 'Listing what is left.', calls: [{ tool: 'shell', args: { command: 'ls -R' } }] },
    ],
  },
};

/** The effect-check demo (endpoint and agent `demo-script-cleanup`), created when missing. */
export async function seedEffectDemo(tx: Tx, teamId: string): Promise<void> {
  await seedFauxAgent(tx, teamId, {
    endpoint: fauxScriptCleanup,
    agent: {
      name: 'demo-script-cleanup',
      description: 'Deletes build/ from a Python script it writes: the effect check holds the deletion with its diff',
      systemPrompt: 'You keep the workspace tidy.',
      tools: tools,
    },
  });
}
