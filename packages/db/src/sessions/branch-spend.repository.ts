import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf, type NamedQuery, type ParamType } from '../sql/named-query';

/**
 * What a branch spent on the model, summed over the events of its log: for `sessions.diff`, each
 * side's spend after the point where the two logs diverge.
 */

/** One link of a session's log: events `(from, upTo]` of `sessionId` (a log is its chain of links from the root). */
export interface LogLink {
  sessionId: string;
  from: number;
  upTo: number;
}

/** Model spend over some events. */
export interface ModelSpend {
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  modelCalls: number;
}

type LinkParam = ParamType<'text' | 'int', false>;
type SpendRow = Record<'input' | 'output' | 'cost' | 'calls', unknown>;

// Each link is an index range of `(sessionId, seq)`, ORed together: the text depends on the
// chain's length, one named statement per length, made when first asked for.
const statements = new Map<number, NamedQuery<Record<string, LinkParam>, SpendRow>>();

function spendQuery(links: number): NamedQuery<Record<string, LinkParam>, SpendRow> {
  let query = statements.get(links);
  if (!query) {
    const params: Record<string, LinkParam> = {};
    const ranges: string[] = [];
    for (let i = 0; i < links; i++) {
      Object.assign(params, { [`session_${i}`]: param.text, [`from_${i}`]: param.int, [`up_to_${i}`]: param.int });
      ranges.push(`(e."sessionId" = :session_${i} AND e.seq > :from_${i} AND e.seq <= :up_to_${i})`);
    }
    query = namedQuery({
      name: `looplane_branch_spend_v1_${links}`,
      params,
      text: `
    SELECT sum((e.payload->'usage'->>'inputTokens')::bigint) AS input, sum((e.payload->'usage'->>'outputTokens')::bigint) AS output,
      sum(COALESCE((e.payload->>'costMicros')::bigint, 0)) AS cost, count(*) FILTER (WHERE e.type = 'model.responded') AS calls
    FROM "Event" e
    WHERE e.type IN ('model.responded', 'model.failed', 'compaction.applied') AND (${ranges.join(' OR ')})`,
    }).returns<SpendRow>();
    statements.set(links, query);
  }
  return query;
}

/**
 * The model spend of a log's events after seq `after` (its own turns, and inherited ones past the
 * shared prefix): tokens, cost and model calls. A log has at least its own session's link.
 */
export async function modelSpendAfter(db: Queryable, chain: readonly LogLink[], after: number): Promise<ModelSpend> {
  if (chain.length === 0) throw new Error('a log has at least one link');
  const query = spendQuery(chain.length);
  const values: Record<string, string | number> = {};
  for (const [i, l] of chain.entries()) {
    Object.assign(values, { [`session_${i}`]: l.sessionId, [`from_${i}`]: Math.max(l.from, after), [`up_to_${i}`]: l.upTo });
  }
  const row = rowsOf(query, await db.query(query.bind(values)))[0];
  // Sums of bigint are numeric and the count is bigint: each driver gives them its own way (a
  // string, a bigint, a decimal); Number reads them all.
  return {
    inputTokens: Number(row?.input ?? 0),
    outputTokens: Number(row?.output ?? 0),
    costMicros: Number(row?.cost ?? 0),
    modelCalls: Number(row?.calls ?? 0),
  };
}
