import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf, type NamedQuery, type ParamType } from '../sql/named-query';
import type { RunStatus, WaitReason } from '../vocabulary/statuses';

/**
 * A page of a team's runs for `runs.list`: keyset on (sort time, id), both descending, so every
 * page is an index range of one of the team's `(teamId, …, createdAt|updatedAt DESC, id DESC)`
 * indexes, never a scan and sort of the team. Each filter adds its own condition, and a status or
 * wait-reason filter lists its values one parameter each: a single status stays an equality, which
 * the `(teamId, status, createdAt, id)` index serves in order (`= ANY(array)` would need a sort).
 * So the text depends on which filters are given and how many values each lists; each such shape
 * is one named statement, made when first asked for.
 */

/** Which runs, in which order, how many. */
export interface RunsPage {
  sort: 'created' | 'updated';
  statuses?: readonly RunStatus[];
  waitReasons?: readonly WaitReason[];
  agentId?: string;
  graphId?: string;
  /** Runs that finished at or after this time. */
  finishedSince?: Date;
  createdById?: string;
  /** Case-insensitive substring of the goal (taken literally: `%` and `_` match themselves). */
  goalContains?: string;
  /** The previous page's last row: this page starts strictly after it. */
  after?: { at: Date; id: string };
  /** Rows to read. */
  limit: number;
}

/** One run of a page (the goal cut to 300 characters). */
export interface RunsPageRow {
  id: string;
  goal: string;
  status: RunStatus;
  waitReason: string | null;
  agentId: string | null;
  agentName: string | null;
  createdById: string | null;
  creatorEmail: string | null;
  createdByTokenId: string | null;
  spentTokens: number;
  spentCostMicros: number;
  toolCalls: number;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

type StoredRow = Omit<RunsPageRow, 'createdAt' | 'updatedAt' | 'startedAt' | 'finishedAt'> & {
  createdAtMs: number;
  updatedAtMs: number;
  startedAtMs: number | null;
  finishedAtMs: number | null;
};

type PageParam = ParamType<'text' | 'int', false>;
type PageQuery = NamedQuery<Record<string, PageParam>, StoredRow>;

/** A statement as the driver takes it (what {@link runsPageQuery} gives, e.g. to EXPLAIN). */
export interface RunsPageStatement {
  name: string;
  text: string;
  values: unknown[];
}

// Timestamps come back as epoch milliseconds, and money as float8, so node-postgres and Prisma's
// raw queries read the same values (stored timestamps are UTC without a zone).
const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
const COLUMNS = `r.id, left(r.goal, 300) AS goal, r.status::text AS status, r."waitReason"::text AS "waitReason",
           r."agentId", a.name AS "agentName", r."createdById", u.email AS "creatorEmail", r."createdByTokenId",
           r."spentTokens"::float8 AS "spentTokens", r."spentCostMicros"::float8 AS "spentCostMicros", r."toolCalls",
           ${ms('r."createdAt"')} AS "createdAtMs", ${ms('r."updatedAt"')} AS "updatedAtMs",
           ${ms('r."startedAt"')} AS "startedAtMs", ${ms('r."finishedAt"')} AS "finishedAtMs"`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

const statements = new Map<string, PageQuery>();

/**
 * The page's statement and its values. The shape key names the sort (`c`reated, `u`pdated) and each
 * condition present: `s<n>` statuses, `w<n>` wait reasons, `a`gent, `g`raph, `f`inished since,
 * `b`y creator, `t`ext, `k`eyset cursor.
 */
function pageStatement(teamId: string, page: RunsPage): { query: PageQuery; values: Record<string, string | number> } {
  const column = page.sort === 'updated' ? 'r."updatedAt"' : 'r."createdAt"';
  const where = ['r."teamId" = :team_id'];
  const params: Record<string, PageParam> = { team_id: param.text, limit: param.int };
  const values: Record<string, string | number> = { team_id: teamId, limit: page.limit };
  const shape: string[] = [page.sort === 'updated' ? 'u' : 'c'];
  const condition = (key: string, clause: string, named: Record<string, string>) => {
    where.push(clause);
    shape.push(key);
    for (const [name, value] of Object.entries(named)) {
      params[name] = param.text;
      values[name] = value;
    }
  };
  /** `column IN (:name_0::type, :name_1::type, …)`, one parameter per value. */
  const inList = (key: 's' | 'w', column: string, type: string, list: readonly string[]) => {
    const prefix = key === 's' ? 'status' : 'wait_reason';
    const named = Object.fromEntries(list.map((value, i) => [`${prefix}_${i}`, value]));
    condition(
      `${key}${list.length}`,
      `${column} IN (${Object.keys(named)
        .map((name) => `:${name}::${type}`)
        .join(', ')})`,
      named,
    );
  };
  if (page.statuses) inList('s', 'r.status', '"RunStatus"', page.statuses);
  if (page.waitReasons) inList('w', 'r."waitReason"', '"WaitReason"', page.waitReasons);
  if (page.agentId) condition('a', 'r."agentId" = :agent_id', { agent_id: page.agentId });
  if (page.graphId) condition('g', 'r."graphId" = :graph_id', { graph_id: page.graphId });
  if (page.finishedSince) condition('f', 'r."finishedAt" >= :finished_since::timestamp(3)', { finished_since: page.finishedSince.toISOString() });
  if (page.createdById) condition('b', 'r."createdById" = :created_by_id', { created_by_id: page.createdById });
  if (page.goalContains) condition('t', 'r.goal ILIKE :goal_pattern', { goal_pattern: `%${escapeLike(page.goalContains)}%` });
  if (page.after) {
    condition('k', `(${column}, r.id) < (:after_at::timestamp(3), :after_id)`, { after_at: page.after.at.toISOString(), after_id: page.after.id });
  }
  const key = shape.join('_');
  let query = statements.get(key);
  if (!query) {
    query = namedQuery({
      name: `looplane_runs_page_v1_${key}`,
      params,
      text: `
    SELECT ${COLUMNS}
    FROM "Run" r
    LEFT JOIN "AgentTemplate" a ON a.id = r."agentId"
    LEFT JOIN "User" u ON u.id = r."createdById"
    WHERE ${where.join(' AND ')}
    ORDER BY ${column} DESC, r.id DESC
    LIMIT :limit`,
    }).returns<StoredRow>();
    statements.set(key, query);
  }
  return { query, values };
}

/** The statement for one page of the team's runs (what {@link listRunsPage} sends). */
export function runsPageQuery(teamId: string, page: RunsPage): RunsPageStatement {
  const { query, values } = pageStatement(teamId, page);
  return query.bind(values);
}

const dateOrNull = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs));

/** A page of the team's runs, newest first by creation or last update. */
export async function listRunsPage(db: Queryable, teamId: string, page: RunsPage): Promise<RunsPageRow[]> {
  const { query, values } = pageStatement(teamId, page);
  return rowsOf(query, await db.query(query.bind(values))).map(({ createdAtMs, updatedAtMs, startedAtMs, finishedAtMs, ...row }) => ({
    ...row,
    createdAt: new Date(createdAtMs),
    updatedAt: new Date(updatedAtMs),
    startedAt: dateOrNull(startedAtMs),
    finishedAt: dateOrNull(finishedAtMs),
  }));
}
