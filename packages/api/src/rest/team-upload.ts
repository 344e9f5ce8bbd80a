import { roleAtLeast } from '@looplane/shared';
import { crossSiteRefusal } from '../auth/cross-site';
import { resolveTeamRole, type SessionClaims } from '../auth/principal';
import { createTrpcContext, type ApiDeps } from '../context';
import { idSchema } from '../schemas';
import { readFileBody } from './rest-file-body';
import { parseQuery } from './rest-input';
import { toJsonValue } from './rest-json';
import { errorResponse, RestProblem } from './rest-problem';
import { createRestCaller } from './rest-route';
import { restRoutes } from './routes';

export interface TeamUploadOptions {
  deps: ApiDeps;
  /** The verified session cookie's claims, if any (an `Authorization` header wins when present). */
  session: SessionClaims | null;
  ip: string | null;
  /** Origins besides the request's own that may POST with the session cookie (the public URL). */
  allowedOrigins?: readonly string[];
  onInternalError?: (error: unknown) => void;
}

const createUpload = restRoutes.find((route) => route.operationId === 'createUpload')!;

/**
 * `POST /api/teams/{teamId}/uploads`: the REST API's `createUpload` for the dashboard, which signs
 * in with its session cookie (`/api/v1` takes only tokens). The same route runs: the same body
 * (multipart `file` or raw bytes, `?filename=`), limits, checks, `uploads.create` procedure and
 * audit row, and the same answers (201 with the upload; problem+json errors). The team is the
 * path's; a cookie POST from another site is refused (403), and the role is checked before the
 * body is read.
 */
export async function handleTeamUpload(request: Request, teamId: string, options: TeamUploadOptions): Promise<Response> {
  try {
    const crossSite = crossSiteRefusal(request, options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {});
    if (crossSite) throw new RestProblem(403, 'FORBIDDEN', crossSite);
    const context = await createTrpcContext(options.deps, { authorization: request.headers.get('authorization'), session: options.session, ip: options.ip });
    if (!context.principal) throw new RestProblem(401, 'UNAUTHORIZED', 'Sign in or send a valid API token');
    const role = idSchema.safeParse(teamId).success ? await resolveTeamRole(context.db, context.principal, teamId) : null;
    if (!role) throw new RestProblem(404, 'NOT_FOUND', 'No such team');
    if (!roleAtLeast(role, createUpload.role)) throw new RestProblem(403, 'FORBIDDEN', `This action needs the ${createUpload.role} role; you are ${role}`);
    const query = parseQuery(createUpload, new URL(request.url).searchParams);
    const file = await readFileBody(request, context.uploadLimits.maxBytes);
    const created = await createUpload.handle({ caller: createRestCaller(context), teamId, params: {}, query, body: undefined, file });
    return new Response(JSON.stringify(toJsonValue(created)), { status: 201, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'body', options.onInternalError);
  }
}
