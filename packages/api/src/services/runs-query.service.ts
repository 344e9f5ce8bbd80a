import { listRunsPage, queryableOf, runsPageQuery, type Db, type RunsPage, type RunsPageStatement } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { ListRunsInput, RunBudget, RunStatus } from '../routers/runs.schema';
import { decodeRunCursor, encodeRunCursor } from './run-cursor';
import { readEventsAfter, type RunEventView } from './run-events';

const num = (value: bigint | number) => Number(value);
const numOrNull = (value: bigint | number | null) => (value === null ? null : Number(value));

async function usersById(db: Db, ids: Array<string | null>) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map<string, { id: string; email: string; name: string | null }>();
  const users = await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true, name: true } });
  return new Map(users.map((u) => [u.id, u]));
}

/** One run with its sessions, run ledger and the people involved. */
export async function getRun(db: Db, teamId: string, runId: string) {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    include: {
      agent: { select: { id: true, name: true } },
      sessions: {
        orderBy: { createdAt: 'asc' },
        take: 200,
        select: { id: true, parentId: true, status: true, waitReason: true, title: true, costMicros: true, lastSeq: true, createdAt: true, finishedAt: true },
      },
      ledgers: { where: { scope: 'run', scopeId: '' } },
    },
  });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  const [people, pendingMessages] = await Promise.all([
    usersById(db, [run.createdById, run.cancelledById]),
    db.inboxMessage.count({ where: { runId, consumedAt: null } }),
  ]);
  const ledger = run.ledgers[0];
  return {
    id: run.id,
    goal: run.goal,
    status: run.status as RunStatus,
    waitReason: run.waitReason,
    agent: run.agent,
    graphId: run.graphId,
    createdBy: run.createdById ? (people.get(run.createdById) ?? null) : null,
    createdByTokenId: run.createdByTokenId,
    budget: run.budget as RunBudget,
    ledger: ledger
      ? {
          limitTokens: numOrNull(ledger.limitTokens),
          limitCostMicros: numOrNull(ledger.limitCostMicros),
          limitCalls: ledger.limitCalls,
          reservedTokens: num(ledger.reservedTokens),
          reservedCostMicros: num(ledger.reservedCostMicros),
          spentTokens: num(ledger.spentTokens),
          spentCostMicros: num(ledger.spentCostMicros),
          calls: ledger.calls,
        }
      : null,
    spentTokens: num(run.spentTokens),
    spentCostMicros: num(run.spentCostMicros),
    toolCalls: run.toolCalls,
    lastEventNo: num(run.lastEventNo),
    busyPolicy: run.busyPolicy,
    cancelRequestedAt: run.cancelRequestedAt,
    cancelledBy: run.cancelledById ? (people.get(run.cancelledById) ?? null) : null,
    rootSessionId: run.rootSessionId,
    mainSessionId: run.mainSessionId,
    result: run.result,
    error: run.error,
    pendingMessages,
    sessions: run.sessions.map((s) => ({ ...s, costMicros: num(s.costMicros) })),
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** The page `input` asks for: one row more than its limit, which tells whether another page follows. */
function pageOf(input: ListRunsInput): RunsPage {
  return {
    sort: input.sort,
    statuses: input.status,
    waitReasons: input.waitReason,
    agentId: input.agentId,
    graphId: input.graphId,
    finishedSince: input.finishedSince,
    createdById: input.createdById,
    goalContains: input.text,
    after: input.cursor ? decodeRunCursor(input.cursor, input.sort) : undefined,
    limit: input.limit + 1,
  };
}

/** The statement of one page of runs (the plan tests EXPLAIN it). */
export function runsPageStatement(teamId: string, input: ListRunsInput): RunsPageStatement {
  return runsPageQuery(teamId, pageOf(input));
}

/** A page of the team's runs, newest first (by creation or last update), with filters. */
export async function listRuns(db: Db, teamId: string, input: ListRunsInput) {
  const rows = await listRunsPage(queryableOf(db), teamId, pageOf(input));
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > input.limit && last
      ? encodeRunCursor({ sort: input.sort, at: input.sort === 'updated' ? last.updatedAt : last.createdAt, id: last.id })
      : null;
  return {
    runs: page.map((r) => ({
      id: r.id,
      goal: r.goal,
      status: r.status,
      waitReason: r.waitReason,
      agent: r.agentId ? { id: r.agentId, name: r.agentName ?? '(deleted)' } : null,
      createdBy: r.createdById ? { id: r.createdById, email: r.creatorEmail ?? '' } : null,
      viaToken: r.createdByTokenId !== null,
      spentTokens: r.spentTokens,
      spentCostMicros: r.spentCostMicros,
      toolCalls: r.toolCalls,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
    })),
    nextCursor,
  };
}

/** A page of a run's events after an event number; `hasMore` says whether to ask again. */
export async function listRunEvents(db: Db, teamId: string, runId: string, after: number, limit: number) {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { lastEventNo: true } });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  const events: RunEventView[] = await readEventsAfter(db, runId, after, limit);
  const nextAfter = events.length > 0 ? events[events.length - 1]!.eventNo : after;
  return { events, nextAfter, lastEventNo: num(run.lastEventNo), hasMore: events.length === limit && nextAfter < num(run.lastEventNo) };
}
