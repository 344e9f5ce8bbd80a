// Vitest-only (registers hooks), like `rest-testbed.ts`: tests import it by relative path.
import { request as httpRequest } from 'node:http';
import { beforeAll, expect } from 'vitest';
import { handleTrpcRequest } from '../http';
import { queryString } from '../rest/rest-links';
import { restRoutes } from '../rest/routes';
import { appRouter } from '../root';
import { dbFingerprints } from './db-fingerprint';
import { sessionOf } from './fixtures';
import { operationPath, type RestReply, type RestRequest } from './rest-client';
import { restWithFiles } from './rest-files';
import { restTestbed, type RestTestbed } from './rest-testbed';
import { teamResources, type TeamResources } from './team-resources';

/**
 * What the REST bad-input tests act on: {@link restTestbed} with no run limits (so only bad input
 * is refused), served again with a workspace reader (so `getSessionFiles` can succeed), the
 * team's resources, and requests sent exactly as given.
 */
export interface RestBadInputBed {
  readonly rest: RestTestbed;
  /** The team's resources (made in `beforeAll`). */
  readonly r: TeamResources;
  /**
   * One request exactly as given (any method with any body and headers), as the admin's token; the
   * body with its Content-Length unless the headers say otherwise. `early`: the body is sent but
   * the request not ended, for a server that answers before reading all of it (413): it answers,
   * then the connection is dropped, without the reset that writing on would cause.
   */
  raw(method: string, path: string, headers: Record<string, string | number>, body?: Buffer | string, early?: boolean): Promise<RestReply>;
  /** The request of an operation, as the admin's token sends it (JSON body, if any). */
  call(operationId: string, request: RestRequest): Promise<RestReply>;
  /** What the route's tRPC procedure says to the same values (its input: the team, the path parameters and the body). */
  trpcMessage(procedure: string, request: RestRequest): Promise<{ status: number; message: string | undefined }>;
  /** Runs `check` and insists the database and the queue are as they were. */
  writesNothing(check: () => Promise<void>): Promise<void>;
}

/** Sets up a {@link RestBadInputBed} for the file: call it at the top level, before the file's own hooks. */
export function restBadInputBed(): RestBadInputBed {
  const rest = restTestbed({ deps: { runLimits: { perMinute: 0, maxQueued: 0 } } });
  const files = restWithFiles(rest);
  const db = () => dbFingerprints(rest.tb.db);
  let resources: TeamResources | undefined;

  beforeAll(async () => {
    resources = await teamResources(files.deps, rest.tb.fx.teamId, rest.tb.fx.members.admin.id);
  });

  function raw(method: string, path: string, headers: Record<string, string | number>, body?: Buffer | string, early = false): Promise<RestReply> {
    const target = new URL(files.url + path);
    const framed =
      body === undefined || 'content-length' in headers || 'transfer-encoding' in headers ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
    return new Promise((resolve, reject) => {
      const req = httpRequest(target, { method, headers: { authorization: `Bearer ${rest.token('admin')}`, ...framed } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (early) req.destroy();
          const text = Buffer.concat(chunks).toString('utf8');
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') replyHeaders.set(name, value);
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON: kept as text for the assertion to show.
          }
          resolve({ status: res.statusCode ?? 0, headers: replyHeaders, body: parsed });
        });
      });
      req.on('error', reject);
      if (!early) return void req.end(body);
      req.flushHeaders();
      if (body !== undefined) req.write(body);
    });
  }

  function call(operationId: string, request: RestRequest): Promise<RestReply> {
    const route = restRoutes.find((x) => x.operationId === operationId)!;
    const search = request.query ? queryString(request.query) : '';
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    return raw(
      route.method,
      operationPath(operationId, request.params) + (search ? `?${search}` : ''),
      { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
      body,
    );
  }

  async function trpcMessage(procedure: string, request: RestRequest): Promise<{ status: number; message: string | undefined }> {
    const input = { teamId: rest.tb.fx.teamId, ...request.params, ...(request.body as object) };
    const type = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[procedure]!._def.type;
    const url = `http://localhost/api/trpc/${procedure}`;
    const payload = JSON.stringify({ json: input });
    const response = await handleTrpcRequest(
      type === 'query'
        ? new Request(`${url}?input=${encodeURIComponent(payload)}`)
        : new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }),
      { deps: files.deps, endpoint: '/api/trpc', session: sessionOf(rest.tb.fx.members.admin.id), ip: null },
    );
    const body = (await response.json()) as { error?: { json?: { message?: string } } };
    return { status: response.status, message: body.error?.json?.message };
  }

  async function writesNothing(check: () => Promise<void>) {
    const before = await db().all();
    const jobs = (await rest.tb.live.jobs()).length;
    await check();
    expect(await db().all()).toEqual(before);
    expect((await rest.tb.live.jobs()).length).toBe(jobs);
  }

  return {
    rest,
    get r() {
      if (!resources) throw new Error('restBadInputBed: not set up yet (use it inside a test or hook)');
      return resources;
    },
    raw,
    call,
    trpcMessage,
    writesNothing,
  };
}
