import type { Queryable } from '@looplane/db';
import { DELIVERY_TOOL_SPECS, type ToolArgs, type ToolResult } from '@looplane/engine';
import type { PolicyDocument } from '@looplane/policy';
import type { WorkspaceManager } from '@looplane/sandbox';
import { SeedFailure } from '../repositories/fetch-repository';
import type { RepositorySecrets } from '../repositories/repository-secrets';
import type { ToolRegistry } from '../tools/tool-registry';
import { exportPatchTool } from './export-patch-tool';
import { publishBranch } from './publish-branch';
import { pullRequestTool } from './pull-request-tool';
import { repositorySeedOf } from './run-seed';

export interface DeliveryDeps {
  pool: Queryable;
  secrets: RepositorySecrets;
  policy(teamId: string): Promise<PolicyDocument>;
  workspaces: WorkspaceManager;
  /** Puts the session's workspace where its log says (the files a call sees) before it is read. */
  prepare(context: { runId: string; sessionId: string; teamId: string }): Promise<void>;
  timeoutMs: number;
}

const text = (args: ToolArgs, name: string): string | null => (typeof args[name] === 'string' ? (args[name] as string) : null);

/** Tool failures a person can act on, instead of a worker error. */
async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SeedFailure) return { ok: false, output: `not done: ${error.message}` };
    throw error;
  }
}

/**
 * Registers `publish_branch`, `open_pull_request` and `export_patch` (DELIVERY_TOOL_SPECS): the
 * worker runs them itself, outside the sandbox, on the session's stored files and with the run's
 * credential; the policy decides each call before it runs, like any other.
 */
export function registerDeliveryTools(registry: ToolRegistry, deps: DeliveryDeps): void {
  const idempotent = (name: string) => DELIVERY_TOOL_SPECS.find((spec) => spec.name === name)?.idempotent ?? false;
  registry.register(
    'publish_branch',
    (args, _call, context) =>
      guarded(async () => {
        const seed = await repositorySeedOf(deps.pool, context.runId);
        if (typeof seed === 'string') return { ok: false, output: `not pushed: ${seed}` };
        const branch = text(args, 'branch');
        const message = text(args, 'message');
        if (branch === null || message === null) return { ok: false, output: 'not pushed: give branch and message' };
        await deps.prepare(context);
        const credential = seed.secretRef ? await deps.secrets.credential(context.teamId, seed.secretRef, seed.url) : null;
        return publishBranch({
          seed,
          branch,
          message,
          runId: context.runId,
          policy: await deps.policy(context.teamId),
          credential,
          sessionGitDir: deps.workspaces.gitDirOf(context.sessionId),
          head: await deps.workspaces.head(context.sessionId),
          timeoutMs: deps.timeoutMs,
        });
      }),
    { idempotent: idempotent('publish_branch') },
  );
  registry.register(
    'open_pull_request',
    (args, _call, context) =>
      guarded(async () => {
        const seed = await repositorySeedOf(deps.pool, context.runId);
        if (typeof seed === 'string') return { ok: false, output: `not opened: ${seed}` };
        const branch = text(args, 'branch');
        const title = text(args, 'title');
        if (branch === null || title === null) return { ok: false, output: 'not opened: give branch and title' };
        if (!seed.secretRef) return { ok: false, output: 'not opened: the run names no token secret (workspace.git.secretRef) to open a pull request with' };
        const forge = await deps.secrets.forge(context.teamId, seed.secretRef);
        const credential = await deps.secrets.credential(context.teamId, seed.secretRef, seed.url).catch(() => null);
        return pullRequestTool({
          seed,
          branch,
          title,
          body: text(args, 'body') ?? '',
          base: text(args, 'base'),
          forge,
          credential,
          timeoutMs: deps.timeoutMs,
          ...(context.signal ? { signal: context.signal } : {}),
        });
      }),
    { idempotent: idempotent('open_pull_request') },
  );
  registry.register(
    'export_patch',
    (args, _call, context) =>
      guarded(async () => {
        const base = typeof args.base === 'number' && Number.isInteger(args.base) && args.base >= 1 ? args.base : null;
        if (args.base !== undefined && base === null) return { ok: false, output: 'no patch: base is an event number (1 or more)' };
        await deps.prepare(context);
        return exportPatchTool({
          pool: deps.pool,
          runId: context.runId,
          sessionId: context.sessionId,
          base,
          sessionGitDir: deps.workspaces.gitDirOf(context.sessionId),
          head: await deps.workspaces.head(context.sessionId),
        });
      }),
    { idempotent: idempotent('export_patch') },
  );
}
