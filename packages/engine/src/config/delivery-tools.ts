import type { ToolSpec } from './tool-spec';

/**
 * The tools that hand a seeded session's work back: run by the worker, not in the sandbox, with
 * the run's credential (which the model never sees). Each is decided by the policy like any call;
 * the default policy asks an approver before a push or a pull request.
 */
export const DELIVERY_TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'publish_branch',
    description:
      "Commit the workspace and push it to the run's repository as a new branch (never force, never the default branch). The push waits for an approver when the policy says so.",
    idempotent: true,
    parameters: {
      type: 'object',
      properties: {
        branch: { type: 'string', description: 'The branch to create or extend on the remote, e.g. fix/login-timeout.' },
        message: { type: 'string', description: 'The commit message.' },
      },
      required: ['branch', 'message'],
    },
  },
  {
    name: 'open_pull_request',
    description: 'Open a pull (merge) request from a branch published with publish_branch, on the forge the repository lives on (GitHub, GitLab, Gitea).',
    idempotent: false,
    parameters: {
      type: 'object',
      properties: {
        branch: { type: 'string', description: 'The published branch.' },
        title: { type: 'string' },
        body: { type: 'string', description: 'The description (Markdown).' },
        base: { type: 'string', description: "The branch to merge into (default: the branch the run started from, else the repository's default)." },
      },
      required: ['branch', 'title'],
    },
  },
  {
    name: 'export_patch',
    description: 'A git format-patch series of what changed since the files the run started from (or since event `base`), to download or hand over.',
    idempotent: true,
    parameters: {
      type: 'object',
      properties: { base: { type: 'integer', minimum: 1, description: 'An event of this session whose files are the base (default: the seeded files).' } },
    },
  },
];

export const DELIVERY_TOOLS = DELIVERY_TOOL_SPECS.map((spec) => spec.name);
