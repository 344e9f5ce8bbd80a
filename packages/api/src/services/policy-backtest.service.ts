import { isolationRank, type SandboxLevelDriver } from '@looplane/shared';
import { decisionSeqs, type Db } from '@looplane/db';
import { OUTCOMES, redecideCall, type Outcome, type PolicyDocument } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import { countRecordedCalls, recordedCallPages, type RecordedCall } from './policy-backtest-calls';
import { queryableOf } from '@looplane/db';

/** Rows read per query: what one page holds in memory, whatever the window's length. */
export const BACKTEST_BATCH = 1000;
/** Characters of a call's arguments shown in an example (the run page has them whole). */
const ARGS_PREVIEW = 300;

export interface BacktestInput {
  document: PolicyDocument;
  since: Date;
  until?: Date | undefined;
  /** Examples kept per cell of the matrix. */
  limit: number;
}

/** Sent after every page: how far the backtest is. `window` bounds are what the run uses. */
export interface BacktestProgress {
  processed: number;
  total: number;
  /** Rows in the page just decided (never more than {@link BACKTEST_BATCH}). */
  batch: number;
  /** createdAt of the last row decided: how far into the window. */
  at: Date;
}

interface BacktestExample {
  runId: string;
  sessionId: string;
  callId: string;
  /** seq of the call's `policy.decided` event in its session (else its `tool.requested`); null if neither is found. */
  seq: number | null;
  at: Date;
  tool: string;
  args: string;
  fromRule: string;
  toRule: string;
  reason: string;
  /** The least isolation the candidate would run the call with; null when it may not run. */
  isolation: SandboxLevelDriver | null;
  /** Dashboard path of the call's run. */
  link: string;
}

interface BacktestCell {
  from: Outcome;
  to: Outcome;
  count: number;
  /** The rules responsible: the rule that decided then → the candidate's rule, most frequent first. */
  rules: Array<{ from: string; to: string; count: number }>;
  /** The cell's latest calls in the window, newest first, at most `limit`. */
  examples: BacktestExample[];
}

export interface BacktestResult {
  since: Date;
  until: Date;
  /** Calls decided again (rows in the window that are readable decisions). */
  total: number;
  /** Of them, decided differently (another outcome or approver role). */
  changed: number;
  /** Rows in the window that are not readable decisions. */
  skipped: number;
  cells: BacktestCell[];
  /** The calls the candidate lets run, by the least isolation it would run them with (weakest first). */
  isolation: Array<{ level: SandboxLevelDriver; count: number }>;
}

interface CellTally {
  count: number;
  rules: Map<string, { from: string; to: string; count: number }>;
  examples: Array<Omit<BacktestExample, 'seq' | 'link'>>;
}

function preview(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length <= ARGS_PREVIEW ? text : `${text.slice(0, ARGS_PREVIEW)}…`;
}

/** The from → to matrix with its counts, rules and examples; fixed size (outcomes²), so bounded whatever the window. */
class Matrix {
  readonly cells = new Map<string, CellTally>();
  readonly levels = new Map<SandboxLevelDriver, number>();
  total = 0;
  changed = 0;

  constructor(private readonly limit: number) {
    for (const from of OUTCOMES) for (const to of OUTCOMES) this.cells.set(`${from}>${to}`, { count: 0, rules: new Map(), examples: [] });
  }

  add(call: RecordedCall, document: PolicyDocument): void {
    // The worker decides with no call context (the default workspace root): so does the backtest.
    const { before, after, changed } = redecideCall(call.recorded, document, { tool: call.tool, args: call.args });
    const cell = this.cells.get(`${before.outcome}>${after.outcome}`)!;
    this.total += 1;
    if (changed) this.changed += 1;
    cell.count += 1;
    const key = `${before.ruleId}\u0000${after.ruleId}`;
    const rule = cell.rules.get(key);
    if (rule) rule.count += 1;
    else cell.rules.set(key, { from: before.ruleId, to: after.ruleId, count: 1 });
    const isolation = after.outcome === 'deny' ? null : (after.isolation ?? document.sandbox.minimumDriver);
    if (isolation) this.levels.set(isolation, (this.levels.get(isolation) ?? 0) + 1);
    // Calls come oldest first; a cell keeps the latest `limit` of them, the ones a team tightening
    // its rules recognises. Bounded: one is dropped for each one kept past the limit.
    if (cell.examples.length === this.limit) cell.examples.shift();
    cell.examples.push({
      runId: call.runId,
      sessionId: call.sessionId,
      callId: call.callId,
      at: call.at,
      tool: call.tool,
      args: preview(call.args),
      fromRule: before.ruleId,
      toRule: after.ruleId,
      reason: after.reason,
      isolation,
    });
  }
}

/** seq of each example's decision event, in one query over the (runId, type) index. */
async function exampleSeqs(db: Db, examples: Array<{ runId: string; sessionId: string; callId: string }>): Promise<Map<string, number>> {
  const seqs = new Map<string, number>();
  const rows = await decisionSeqs(queryableOf(db), examples);
  for (const row of rows) if (row.seq !== null) seqs.set(`${row.sessionId}\u0000${row.callId}`, Number(row.seq));
  return seqs;
}

/**
 * Decides every tool call the worker recorded in the window again under `input.document` and
 * tallies recorded outcome → candidate outcome. Calls are read in keyset pages of
 * {@link BACKTEST_BATCH}; only the matrix (fixed size, `limit` examples per cell) outlives a
 * page, so memory does not grow with the window. `onProgress` is awaited after every page (a
 * slow stream reader slows the reading, nothing piles up); `signal` stops between pages.
 */
export async function backtestPolicy(
  db: Db,
  teamId: string,
  input: BacktestInput,
  options: { onProgress?: (progress: BacktestProgress) => void | Promise<void>; signal?: AbortSignal; batchSize?: number } = {},
): Promise<BacktestResult> {
  const until = input.until ?? new Date();
  if (until.getTime() <= input.since.getTime()) throw new AppError('BAD_REQUEST', 'until must be later than since');
  const team = await db.team.findUnique({ where: { id: teamId }, select: { slug: true } });
  if (!team) throw new AppError('NOT_FOUND', 'No such team');
  const window = { teamId, since: input.since, until };
  const total = await countRecordedCalls(db, window);
  const matrix = new Matrix(input.limit);
  let processed = 0;
  let skipped = 0;
  for await (const page of recordedCallPages(db, window, options.batchSize ?? BACKTEST_BATCH, options.signal)) {
    for (const call of page.calls) matrix.add(call, input.document);
    processed += page.rows;
    skipped += page.skipped;
    const last = page.calls[page.calls.length - 1];
    // Rows appended to the window while it runs can make it longer than counted.
    await options.onProgress?.({ processed, total: Math.max(total, processed), batch: page.rows, at: last?.at ?? until });
  }
  const examples = [...matrix.cells.values()].flatMap((c) => c.examples);
  const seqs = await exampleSeqs(db, examples);
  const cells: BacktestCell[] = [...matrix.cells.entries()].map(([key, cell]) => {
    const [from, to] = key.split('>') as [Outcome, Outcome];
    return {
      from,
      to,
      count: cell.count,
      rules: [...cell.rules.values()].sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
      // Newest first.
      examples: cell.examples
        .toReversed()
        .map((e) => ({ ...e, seq: seqs.get(`${e.sessionId}\u0000${e.callId}`) ?? null, link: `/t/${team.slug}/runs/${e.runId}` })),
    };
  });
  const isolation = [...matrix.levels.entries()].sort(([a], [b]) => isolationRank(a) - isolationRank(b)).map(([level, count]) => ({ level, count }));
  return { since: input.since, until, total: matrix.total, changed: matrix.changed, skipped, cells, isolation };
}
