import { defineRoute, type RestRoute } from '../rest-route';
import {
  forkBody,
  replayBody,
  resumeBody,
  sessionFiles,
  sessionFilesQuery,
  sessionForked,
  sessionIdParams,
  sessionReplayed,
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
];
