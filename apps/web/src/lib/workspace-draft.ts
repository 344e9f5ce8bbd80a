import type { WorkspaceSource } from '@looplane/engine';

/** Where a run's files come from, as the New run page offers it ("none": the agent's default, else empty). */
export type WorkspaceChoice = 'none' | 'git' | 'archive' | 'session';

/** The repository fields as typed (strings; empty = not given). */
export interface RepositoryDraft {
  url: string;
  ref: string;
  secretRef: string;
  depth: string;
}

export interface WorkspaceDraft {
  choice: WorkspaceChoice;
  repository: RepositoryDraft;
  /** The finished upload's id; null while none is (or while one is still being sent). */
  uploadId: string | null;
  session: { sessionId: string; atEvent: string };
}

export const EMPTY_REPOSITORY: RepositoryDraft = { url: '', ref: '', secretRef: '', depth: '' };
export const EMPTY_WORKSPACE: WorkspaceDraft = { choice: 'none', repository: EMPTY_REPOSITORY, uploadId: null, session: { sessionId: '', atEvent: '' } };

/** A whole number of at least 1 from a typed field; undefined when empty; an Error naming `what` otherwise. */
function wholeNumber(text: string, what: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) throw new Error(`${what} must be a whole number of at least 1`);
  return Number(trimmed);
}

/**
 * The repository source the fields describe. Only what the page can say better than the server is
 * checked here (a missing URL, a depth that is not a number); the server checks the URL, the ref,
 * the policy and the secret, and its message is shown as it is.
 */
export function repositorySource(draft: RepositoryDraft): Extract<WorkspaceSource, { git: unknown }> {
  const url = draft.url.trim();
  if (url === '') throw new Error('Give the repository URL (https://…, ssh://…, git@host:path or file:///…)');
  const depth = wholeNumber(draft.depth, 'The history depth');
  return {
    git: {
      url,
      ...(draft.ref.trim() ? { ref: draft.ref.trim() } : {}),
      ...(draft.secretRef.trim() ? { secretRef: draft.secretRef.trim() } : {}),
      ...(depth !== undefined ? { depth } : {}),
    },
  };
}

/**
 * What `runs.create` gets as `workspace`: undefined for "none" (the agent's default applies), else
 * the chosen source. Throws an Error saying what is missing.
 */
export function workspaceSource(draft: WorkspaceDraft): WorkspaceSource | undefined {
  switch (draft.choice) {
    case 'none':
      return undefined;
    case 'git':
      return repositorySource(draft.repository);
    case 'archive':
      if (!draft.uploadId) throw new Error('Choose an archive and wait until it is uploaded');
      return { archive: { uploadId: draft.uploadId } };
    case 'session': {
      const sessionId = draft.session.sessionId.trim();
      if (sessionId === '') throw new Error('Give the id of the session whose files the run starts from');
      const atEvent = wholeNumber(draft.session.atEvent, 'The event');
      return { session: { sessionId, ...(atEvent !== undefined ? { atEvent } : {}) } };
    }
  }
}
