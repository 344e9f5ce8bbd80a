'use client';

import type { WorkspaceSource } from '@looplane/engine';
import { RepositoryFields } from '@/components/workspace/repository-fields';
import { describeSource } from '@/components/workspace/workspace-picker';
import { EMPTY_REPOSITORY, repositorySource, type RepositoryDraft } from '@/lib/workspace-draft';

/** The form's starting fields for an agent's stored default (only a repository is edited here). */
export function repositoryDraftOf(source: WorkspaceSource | null | undefined): RepositoryDraft {
  if (!source || !('git' in source)) return EMPTY_REPOSITORY;
  const { url, ref, secretRef, depth } = source.git;
  return { url, ref: ref ?? '', secretRef: secretRef ?? '', depth: depth === undefined ? '' : String(depth) };
}

/** Whether two repository sources name the same thing. */
function sameRepository(a: Extract<WorkspaceSource, { git: unknown }>['git'], b: Extract<WorkspaceSource, { git: unknown }>['git']): boolean {
  return a.url === b.url && a.ref === b.ref && a.secretRef === b.secretRef && a.depth === b.depth;
}

/**
 * What a save sends as `workspace`: the repository typed; null to clear a repository default whose
 * URL was emptied; undefined to leave the default alone (unchanged, none was set, or one set through
 * the API that is not a repository, which this form does not edit), so saving other fields does not
 * check the default against the policy again. Throws an Error naming a bad field.
 */
export function workspaceToSave(draft: RepositoryDraft, stored: WorkspaceSource | null | undefined): WorkspaceSource | null | undefined {
  const storedGit = stored && 'git' in stored ? stored.git : null;
  if (draft.url.trim() === '') return storedGit ? null : undefined;
  // The depth is not shown here: a stored one is kept.
  const git = { ...repositorySource(draft).git, ...(storedGit?.depth ? { depth: storedGit.depth } : {}) };
  return storedGit && sameRepository(git, storedGit) ? undefined : { git };
}

/** The agent's default files: a repository every run starts from unless the run names its own. */
export function AgentWorkspaceField({
  value,
  onChange,
  stored,
}: {
  value: RepositoryDraft;
  onChange: (value: RepositoryDraft) => void;
  stored: WorkspaceSource | null | undefined;
}) {
  const other = stored && !('git' in stored) ? stored : null;
  return (
    <fieldset className="flex flex-col gap-2" data-testid="agent-workspace">
      <legend className="mb-1 text-xs font-medium text-muted">Default files (optional)</legend>
      <p className="text-xs text-muted">
        A repository each run of this agent starts from, unless the run names its own files. Empty: runs start with an empty workspace. The team policy&apos;s
        workspace.sources must allow it.
      </p>
      {other ? (
        <p className="text-xs text-muted" data-testid="agent-workspace-other">
          Runs now start from <span className="font-mono text-foreground">{describeSource(other)}</span> (set through the API); a repository given here replaces
          it.
        </p>
      ) : null}
      <RepositoryFields value={value} onChange={onChange} idPrefix="agent-workspace" testPrefix="agent-workspace" withDepth={false} />
    </fieldset>
  );
}
