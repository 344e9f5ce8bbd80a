import { z } from 'zod';
import { workspacePathSchema } from '@looplane/workspaces';
import { forkSessionInput, replaySessionInput, restoreSessionInput, resumeSessionInput } from '../../routers/sessions.schema';
import { id, intQuery } from './common.schemas';

export const sessionIdParams = z.strictObject({ sessionId: id });

export const forkBody = z
  .strictObject({
    atEvent: forkSessionInput.shape.atEvent.meta({
      description: 'The event’s seq in this session’s log (as the run page shows it, `#seq`), not the run-wide eventNo',
    }),
    message: forkSessionInput.shape.message.meta({ description: 'A user message the branch starts with' }),
    agentOverrides: forkSessionInput.shape.agentOverrides,
  })
  .meta({ id: 'ForkSessionRequest' });

export const replayBody = z
  .strictObject({
    atEvent: replaySessionInput.shape.atEvent.meta({
      description: 'The event’s seq to replay from (default: the session’s start, before its first model call); at a turn’s start or end',
    }),
    endpointId: replaySessionInput.shape.endpointId.meta({ description: 'A model endpoint of the team to replay on (default: the session’s own)' }),
    systemPrompt: replaySessionInput.shape.systemPrompt.meta({ description: 'Replaces the system prompt for the replay' }),
    mode: replaySessionInput.shape.mode.meta({
      description: 'At the first divergence from the recording: stop (end with the report) or live (go on for real, under the policy and budgets)',
    }),
  })
  .meta({ id: 'ReplaySessionRequest' });

export const sessionReplayed = z
  .strictObject({ sessionId: id, runId: id, parentId: id, atEvent: z.int(), mode: z.enum(['stop', 'live']) })
  .meta({ id: 'SessionReplayed' });

export const resumeBody = z.strictObject({ message: resumeSessionInput.shape.message }).meta({ id: 'ResumeSessionRequest' });

export const restoreBody = z
  .strictObject({
    atEvent: restoreSessionInput.shape.atEvent.meta({
      description: 'The event’s seq in this session’s log (as the run page shows it, `#seq`) whose files are put back, not the run-wide eventNo',
    }),
    paths: restoreSessionInput.shape.paths.meta({
      description:
        'Files or directories to restore, relative to the workspace root (at most 1000), each as it was at the event; one that did not exist then is removed. Leave out to restore the whole workspace',
    }),
  })
  .meta({ id: 'RestoreSessionRequest' });

export const sessionRestored = z
  .strictObject({
    requestId: id,
    sessionId: id,
    runId: id,
    atEvent: z.int(),
    commit: z.string().nullable().meta({ description: 'The commit recorded at that event, whose files are restored; null: the empty workspace' }),
    paths: z.array(z.string()).nullable().meta({ description: 'The paths restored; null: the whole workspace' }),
    reopened: z.boolean().meta({ description: 'The session had finished: it is reopened to apply the restore, then finishes again with the same outcome' }),
  })
  .meta({ id: 'SessionRestoreRequested' });

export const sessionFilesQuery = z.strictObject({
  atEvent: intQuery(1, 2_147_483_647).optional().meta({ description: 'An event seq of the session (default: its latest committed event)' }),
  path: workspacePathSchema.optional().meta({ description: 'A directory or file, relative to the workspace root (default: the root)' }),
});

export const sessionForked = z.strictObject({ sessionId: id, runId: id, parentId: id, atEvent: z.int() }).meta({ id: 'SessionForked' });

export const sessionResumed = z.strictObject({ sessionId: id, runId: id, status: z.literal('idle') }).meta({ id: 'SessionResumed' });

const workspaceEntry = z.strictObject({
  name: z.string(),
  path: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'submodule']),
  size: z.int().nullable().meta({ description: 'Bytes, for files and symlinks' }),
});

const workspaceNode = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('dir'), path: z.string(), entries: z.array(workspaceEntry) }),
    z.strictObject({
      kind: z.literal('file'),
      path: z.string(),
      size: z.int(),
      encoding: z.enum(['utf8', 'base64']),
      content: z.string(),
      truncated: z.boolean().meta({ description: 'The file is over 1 MiB: `content` holds its first MiB' }),
    }),
  ])
  .meta({ id: 'WorkspaceNode' });

export const sessionFiles = z
  .strictObject({
    runId: id,
    sessionId: id,
    atEvent: z.int(),
    commit: z.string().nullable().meta({ description: 'The commit read; null: no call had changed a file by then' }),
    node: workspaceNode,
  })
  .meta({ id: 'SessionFiles' });

export const sessionPatchQuery = z.strictObject({
  base: intQuery(1, 2_147_483_647)
    .optional()
    .meta({ description: 'An event seq of the session whose files the series starts from (default: the files the run was seeded with)' }),
});

/** `GET /sessions/{sessionId}/patch`: the series itself, as text (empty: nothing changed). */
export const sessionPatch = z.string().meta({
  id: 'SessionPatch',
  description: 'A `git format-patch` series (mbox, one message per call that changed files, binary changes included); `git am` applies it',
});
