// Vitest-only: registers hooks, like `testbed.ts`, so it stays out of `./index.ts`.
import pg from 'pg';
import { beforeAll } from 'vitest';
import { handleTrpcRequest } from '../http';
import { issueToken, sessionOf } from './fixtures';
import { apiTestbed, type ApiTestbedWithAgent } from './testbed';

/**
 * What the tRPC bad-input tests act on: {@link apiTestbed} with an agent, plus a token, a run and
 * its root session of the team (so the valid inputs name real things), the row count of every
 * table, and a POST straight to the tRPC handler.
 */
export interface TrpcBadInputBed {
  readonly tb: ApiTestbedWithAgent;
  /** A viewer token of the team's admin (for `tokens.revoke`). */
  readonly tokenId: string;
  /** A queued run of the agent. */
  readonly runId: string;
  /** The run's root session. */
  readonly sessionId: string;
  /** The row count of every table of the public schema, for "writes nothing". */
  tableCounts(): Promise<Record<string, number>>;
  /** POSTs `body` to the tRPC handler at `path` (procedures, and `?batch=1`) as `userId` (the admin unless given). */
  post(path: string, body: string | Uint8Array, userId?: string | null): Promise<Response>;
}

/** Sets up a {@link TrpcBadInputBed} for the file: call it at the top level, before the file's own hooks. */
export function trpcBadInputBed(): TrpcBadInputBed {
  const tb = apiTestbed({ agent: true });
  let tokenId: string | undefined;
  let runId: string | undefined;
  let sessionId: string | undefined;

  beforeAll(async () => {
    tokenId = (await issueToken(tb.db, tb.fx.teamId, tb.fx.members.admin.id, 'viewer')).id;
    runId = (await (await tb.as('admin')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'x' })).runId;
    sessionId = (await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } })).mainSessionId!;
  });

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`trpcBadInputBed: ${name} is not set up yet (read it inside a test or hook)`);
    return value;
  };
  return {
    tb,
    get tokenId() {
      return ready(tokenId, 'tokenId');
    },
    get runId() {
      return ready(runId, 'runId');
    },
    get sessionId() {
      return ready(sessionId, 'sessionId');
    },
    async tableCounts() {
      const client = new pg.Client({ connectionString: tb.url });
      await client.connect();
      try {
        const tables = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
        );
        const counts: Record<string, number> = {};
        for (const { tablename } of tables.rows) {
          const r = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${tablename}"`);
          counts[tablename] = Number(r.rows[0]!.n);
        }
        return counts;
      } finally {
        await client.end();
      }
    },
    post(path, body, userId = tb.fx.members.admin.id) {
      const request = new Request(`http://localhost/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return handleTrpcRequest(request, { deps: tb.deps, endpoint: '/api/trpc', session: sessionOf(userId), ip: '127.0.0.1' });
    },
  };
}
