import type { AppRouter } from '@looplane/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { wireTransformer } from '@looplane/shared/wire';

/** Where the CLI's remote commands talk to, and as whom. */
export interface Remote {
  /** Base URL without a trailing slash, e.g. `http://localhost:3000`. */
  url: string;
  token: string;
}

/** A typed tRPC client over HTTP (the API's wire transformer), authenticated with the team API token. */
export function createApiClient(remote: Remote, fetchImpl: typeof fetch = fetch) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${remote.url}/api/trpc`,
        transformer: wireTransformer,
        headers: { authorization: `Bearer ${remote.token}` },
        fetch: fetchImpl,
      }),
    ],
  });
}
export type ApiClient = ReturnType<typeof createApiClient>;

/** One line for a failed API call: the server's 4xx message, or what went wrong on the way. */
export function describeApiError(error: unknown, remote: Remote): string {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    if (status === 401) return `the server refused the token (401): check LOOPLANE_TOKEN`;
    if (status !== undefined) return error.message;
    const cause = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause.message : error.cause.message) : error.message;
    return `cannot reach ${remote.url}: ${cause} (set LOOPLANE_URL?)`;
  }
  return error instanceof Error ? error.message : String(error);
}
