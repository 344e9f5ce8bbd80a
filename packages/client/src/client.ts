import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/schema';
import { ConnectionError, ProblemError } from './problem';

/** Where the REST API is mounted on a Looplane server; the document's paths are below it. */
export const API_BASE_PATH = '/api/v1';

export interface LooplaneClientOptions {
  /** The server's origin, e.g. `http://localhost:3000` (a trailing slash is ignored). */
  url: string;
  /** A team API token (`llp_…`), sent as `Authorization: Bearer`; the team is the token's. */
  token: string;
  /** The fetch to send requests with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The typed client: `GET`, `POST`, `PATCH`, `DELETE` over the document's paths (openapi-fetch). */
export type LooplaneClient = Client<paths>;

/**
 * A client of the REST API of one server, as one team token. Calls resolve to openapi-fetch's
 * `{ data, error, response }` (pass them to {@link unwrap} to get the body or a
 * {@link ProblemError}); a server that cannot be reached rejects with a {@link ConnectionError}.
 */
export function createLooplaneClient(options: LooplaneClientOptions): LooplaneClient {
  const origin = options.url.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => fetch(request));
  return createClient<paths>({
    baseUrl: origin + API_BASE_PATH,
    headers: { authorization: `Bearer ${options.token}` },
    fetch: async (request) => {
      try {
        return await send(request);
      } catch (error) {
        // An abort is the caller's own doing, not an unreachable server.
        if (request.signal.aborted) throw error;
        throw new ConnectionError(origin, error);
      }
    },
  });
}

/** One call's outcome as openapi-fetch gives it: `data` on success, `error` otherwise. */
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The body of a successful call; any error status is thrown as a {@link ProblemError}. */
export async function unwrap<R extends CallResult>(call: Promise<R>): Promise<Exclude<R['data'], undefined>> {
  const result = await call;
  if (!result.response.ok) throw ProblemError.of(result.response, result.error);
  return result.data as Exclude<R['data'], undefined>;
}
