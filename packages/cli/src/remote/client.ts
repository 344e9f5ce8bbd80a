import { ConnectionError, createLooplaneClient, ProblemError, type LooplaneClient } from '@looplane/client';

/** Where the CLI's remote commands talk to, and as whom. */
export interface Remote {
  /** Base URL without a trailing slash, e.g. `http://localhost:3000`. */
  url: string;
  token: string;
}

/**
 * The typed REST client (`/api/v1`, generated from the OpenAPI document), authenticated with the
 * team API token: every remote command goes through the public API, so the CLI exercises it.
 */
export function createApiClient(remote: Remote, fetchImpl: typeof fetch = fetch): ApiClient {
  return createLooplaneClient({ url: remote.url, token: remote.token, fetch: (request) => fetchImpl(request) });
}
export type ApiClient = LooplaneClient;

/** One line for a failed API call: the server's 4xx message, or what went wrong on the way. */
export function describeApiError(error: unknown, _remote: Remote): string {
  if (error instanceof ProblemError) {
    if (error.status === 401) return `the server refused the token (401): check LOOPLANE_TOKEN`;
    return error.message;
  }
  if (error instanceof ConnectionError) return `${error.message} (set LOOPLANE_URL?)`;
  return error instanceof Error ? error.message : String(error);
}
