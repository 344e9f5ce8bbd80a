import { Readable } from 'node:stream';
import { AppError } from '@looplane/shared';
import { resolvePrincipal, type SessionClaims } from '../auth/principal';
import type { ApiDeps } from '../context';
import { httpStatusOf } from '../errors';
import { sessionArchive } from '../services/sessions-archive.service';
import { jsonError } from './sse';

export interface DownloadRequest {
  /** The verified session cookie's claims, if any (the `Authorization` header wins when present). */
  session: SessionClaims | null;
}

/**
 * `GET /api/sessions/{sessionId}/workspace.tar.gz?atEvent=N`: the session's files at event N
 * (default: its latest committed event) as a gzipped tarball, streamed from the workspace store.
 * Bearer token or session cookie. Errors are plain JSON (`{ error: { message } }`): 401 signed
 * out, 404 for a session the caller's teams do not own (or none at all), 400 for a bad `atEvent`,
 * 404 when the files are gone (retention) and 412 when this server has no workspace store.
 */
export async function handleWorkspaceDownload(request: Request, sessionId: string, deps: ApiDeps, auth: DownloadRequest): Promise<Response> {
  const principal = await resolvePrincipal(deps.db, { authorization: request.headers.get('authorization'), session: auth.session });
  if (!principal) return jsonError(401, 'Sign in or send a valid API token');
  try {
    const archive = await sessionArchive(deps, principal, sessionId, new URL(request.url).searchParams.get('atEvent'));
    // Closing the web stream (the client went away) destroys the git process's pipe, which ends it.
    const body = Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="${archive.filename}"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (error instanceof AppError && error.code !== 'INTERNAL') return jsonError(httpStatusOf(error), error.message);
    throw error;
  }
}
