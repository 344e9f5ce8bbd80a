import { z } from 'zod';
import { WORKSPACE_SOURCE_KINDS } from '../config/workspace-source';
import { repositorySkillSchema } from '../skills/skill-schemas';

const count = z.int().nonnegative();
const commitId = z.string().regex(/^[0-9a-f]{40,64}$/);

/**
 * `workspace.seeded`: a session's first event when its run named files to start from. `commit` is
 * the workspace store's commit of those files (the session's files from here on, as a mutating
 * call's `tool.finished`). For a repository: `url` as given (it never holds a credential), the
 * `ref` asked for (absent: the remote's HEAD, `branch` then names it), `revision` the repository's
 * commit checked out, `secretRef` the team secret's name (never its value). For an upload:
 * `uploadId` and its `filename`. For another session's files: `fromSession` and the event they
 * were taken at. `files`/`bytes`: regular files and their total size.
 */
export const workspaceSeededSchema = z.object({
  source: z.enum(WORKSPACE_SOURCE_KINDS),
  commit: commitId,
  files: count,
  bytes: count,
  url: z.string().optional(),
  ref: z.string().optional(),
  branch: z.string().optional(),
  revision: commitId.optional(),
  secretRef: z.string().optional(),
  uploadId: z.string().optional(),
  filename: z.string().optional(),
  fromSession: z.object({ sessionId: z.string(), atEvent: count }).optional(),
});
export type WorkspaceSeed = z.output<typeof workspaceSeededSchema>;

/**
 * `run.started.repository`: the seeded repository's root `AGENTS.md` (cut at `AGENTS_MD_MAX_BYTES`)
 * and its skills (`.looplane/skills/<dir>/SKILL.md`), each absent when it has none.
 */
export const repositoryContextSchema = z.object({
  agentsMd: z.object({ text: z.string(), bytes: count, truncated: z.boolean() }).optional(),
  skills: z.array(repositorySkillSchema).max(50).optional(),
});
export type RepositoryContext = z.output<typeof repositoryContextSchema>;
