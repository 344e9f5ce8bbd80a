import { defineRoute, type RestRoute } from '../rest-route';
import {
  forkBody,
  replayBody,
  restoreBody,
  resumeBody,
  sessionFiles,
  sessionFilesQuery,
  sessionForked,
  sessionIdParams,
  sessionPatch,
  sessionPatchQuery,
  sessionReplayed,
  sessionRestored,
  sessionResumed,
} from '../schemas/sessions.schemas';

const sessionParams = { sessionId: 'cmexampleid0000000000000' };

export const sessionRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/sessions/{sessionId}/fork',
    operationId: 'forkSession',
    summary: 'Fork a session',
    description:
      'A new branch from an event of the session (its conversation and workspace as they were then), optionally with a message and another endpoint or prompt.',
    tag: 'sessions',
    procedure: 'sessions.fork',
    params: sessionIdParams,
    body: forkBody,
    response: sessionForked,
    status: 201,
    responseDescription: 'The branch was created and queued',
    problems: [404, 412, 422, 429],
    example: { params: sessionParams, body: { atEvent: 4, message: 'Try the other approach' } },
    handle: ({ caller, teamId, params, body }) => caller.sessions.fork({ teamId, sessionId: params.sessionId, ...body }),
  }),

  defineRoute({
    method: 'POST',
    path: '/sessions/{sessionId}/replay',
    operationId: 'replaySession',
    summary: 'Replay a session on another endpoint or prompt',
    description:
      'A replay branch in the same run: from an event of the session, the new model runs with the recorded input; while it asks for the same tool calls as the recording, ' +
      'the recorded results are served from the log (nothing runs again). At the first divergence, stop ends the branch with a report (a replay.diverged event), live goes on for real.',
    tag: 'sessions',
    procedure: 'sessions.replay',
    params: sessionIdParams,
    body: replayBody,
    response: sessionReplayed,
    status: 201,
    responseDescription: 'The replay branch was created and queued',
    problems: [404, 412, 422, 429],
    example: { params: sessionParams, body: { endpointId: 'cmexampleendpoint0000000', mode: 'stop' } },
    handle: ({ caller, teamId, params, body }) => caller.sessions.replay({ teamId, sessionId: params.sessionId, ...body }),
  }),

  defineRoute({
    method: 'POST',
    path: '/sessions/{sessionId}/resume',
    operationId: 'resumeSession',
    summary: 'Resume a session',
    description: 'Continues a finished session with a new instruction.',
    tag: 'sessions',
    procedure: 'sessions.resume',
    params: sessionIdParams,
    body: resumeBody,
    response: sessionResumed,
    responseDescription: 'The session was queued with the message',
    problems: [404, 412, 422, 429],
    example: { params: sessionParams, body: { message: 'Now write the tests' } },
    handle: ({ caller, teamId, params, body }) => caller.sessions.resume({ teamId, sessionId: params.sessionId, message: body.message }),
  }),

  defineRoute({
    method: 'POST',
    path: '/sessions/{sessionId}/restore',
    operationId: 'restoreSession',
    summary: 'Restore a session’s files to an earlier event',
    description:
      'Puts the session’s workspace (or only the given paths) back as it was at an event of its log, as a new commit recorded by a workspace.restored event. ' +
      'Recorded and audited now; the worker applies it at the session’s next step boundary. A finished session is reopened for it and finishes again with the same outcome, without a model call.',
    tag: 'sessions',
    procedure: 'sessions.restore',
    params: sessionIdParams,
    body: restoreBody,
    response: sessionRestored,
    status: 201,
    responseDescription: 'The restore was recorded (and audited); the worker applies it',
    problems: [404, 409, 412, 422],
    example: { params: sessionParams, body: { atEvent: 4, paths: ['src/app.ts'] } },
    handle: ({ caller, teamId, params, body }) => caller.sessions.restore({ teamId, sessionId: params.sessionId, ...body }),
  }),

  defineRoute({
    method: 'GET',
    path: '/sessions/{sessionId}/files',
    operationId: 'getSessionFiles',
    summary: 'Browse a session’s files',
    description:
      'A directory listing, or one file’s content (UTF-8 text or base64, cut at 1 MiB), of the session’s workspace as it was at an event. ' +
      'The whole workspace as a tarball is `/api/sessions/{sessionId}/workspace.tar.gz`.',
    tag: 'sessions',
    procedure: 'sessions.files',
    params: sessionIdParams,
    query: sessionFilesQuery,
    response: sessionFiles,
    responseDescription: 'The directory or file',
    problems: [404, 412],
    example: { params: sessionParams, query: { path: 'src' } },
    handle: ({ caller, teamId, params, query }) => caller.sessions.files({ teamId, sessionId: params.sessionId, ...query }),
  }),

  defineRoute({
    method: 'GET',
    path: '/sessions/{sessionId}/patch',
    operationId: 'getSessionPatch',
    summary: 'Download what a session changed as a patch series',
    description:
      'What the session changed, as a `git format-patch` series (one message per call that changed files, binary-safe), from the files its run was seeded with ' +
      '(a repository, an upload or another session’s files) or from its files at event `base`, to its latest files. `git am` on the repository the run ' +
      'started from reproduces them. Empty when nothing changed; 412 when the run started empty and no `base` is given.',
    tag: 'sessions',
    procedure: 'sessions.patch',
    params: sessionIdParams,
    query: sessionPatchQuery,
    download: {
      mediaType: 'text/x-patch; charset=utf-8',
      // Ids are cuids; anything else is dropped so the header stays one quoted token.
      filename: (params) => `${params.sessionId.replace(/[^A-Za-z0-9_-]/g, '')}.patch`,
    },
    response: sessionPatch,
    responseDescription: 'The patch series (an attachment named `<sessionId>.patch`)',
    problems: [404, 412],
    example: { params: sessionParams, query: { base: 4 } },
    handle: async ({ caller, teamId, params, query }) => (await caller.sessions.patch({ teamId, sessionId: params.sessionId, ...query, whole: true })).patch,
  }),
];
