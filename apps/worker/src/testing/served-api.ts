import { createDispatch } from '@looplane/api';
import { serveApi, type ServedApi } from '@looplane/api/testing';
import type { Db } from '@looplane/db';
import type { RuntimeSuite } from './runtime-suite';

/** What a tRPC call over HTTP answered: the status, the data on success, the error otherwise. */
interface HttpAnswer {
  status: number;
  data: unknown;
  error: { message: string; code: string } | null;
}

/** The API over HTTP, wired to the suite's worker (its queue and bus), and a bearer-token caller. */
export interface WorkerApi {
  served: ServedApi;
  /** A tRPC mutation (`POST`) or query (`GET`) with `Authorization: Bearer <token>` (superjson wire format). */
  call(path: string, token: string, input: unknown, kind?: 'mutation' | 'query'): Promise<HttpAnswer>;
}

/** Serves the API for a runtime suite's database; the decisions it records wake the suite's worker. */
export async function serveApiFor(db: Db, suite: RuntimeSuite): Promise<WorkerApi> {
  const served = await serveApi({ db, dispatch: createDispatch(suite.client.queue, suite.client.bus) }, { db, bus: suite.client.bus });
  return {
    served,
    async call(path, token, input, kind = 'mutation') {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const response =
        kind === 'mutation'
          ? await fetch(`${served.url}/api/trpc/${path}`, { method: 'POST', headers, body: JSON.stringify({ json: input }) })
          : await fetch(`${served.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers });
      const body = (await response.json()) as { result?: { data?: { json?: unknown } }; error?: { json?: { message?: string; data?: { code?: string } } } };
      const error = body.error?.json ? { message: body.error.json.message ?? '', code: body.error.json.data?.code ?? '' } : null;
      return { status: response.status, data: body.result?.data?.json ?? null, error };
    },
  };
}
