import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ModelPort, ScriptTurn } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { countsBetween, StatementCounter, type StatementCounts } from '../testing/statement-counter';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';

// Round trips, statements and commits the worker sends to Postgres for one run of TURNS steps
// (each a model call and one tool call), then a final answer, per step mode. ARCHITECTURE.md
// ("Round trips and commits per step") repeats these figures: change both together, and only for a
// change that means to cost what it costs.

const TURNS = 10;

type Cost = Pick<StatementCounts, 'roundTrips' | 'statements' | 'commits' | 'writeCommits'>;
const cost = (roundTrips: number, statements: number, commits: number, writeCommits: number): Cost => ({ roundTrips, statements, commits, writeCommits });

/**
 * Per mode, split at the model calls: `start` (the context read, admission and claim, `run.started`
 * and the first model call's reservation, the policy read that gates that call), each `step` (from
 * one model call's answer to the next's: its events, the tool call's policy read, audit row and
 * run, the next model call's reservation and policy read) and `finish` (after the last model call:
 * `run.finished`, whose flush also releases the session, and the checks for a message or a restore
 * that raced it). A decision's audit row rides in the flush that writes its `policy.decided`, chained
 * onto the team's tail this worker last wrote; the first step's row cannot be (this worker has not
 * seen the team's chain yet) and takes the locked path, which reads the tail: FIRST_AUDIT more.
 * `writeCommits`: commits of a transaction that sent a writing statement, whether or not it
 * changed a row.
 */
const EXPECTED = {
  strict: { start: cost(8, 11, 4, 2), step: cost(4, 4, 4, 2), finish: cost(3, 3, 3, 3) },
  idempotent: { start: cost(4, 7, 4, 2), step: cost(4, 4, 4, 2), finish: cost(3, 3, 3, 3) },
  nonIdempotent: { start: cost(4, 7, 4, 2), step: cost(4, 4, 4, 2), finish: cost(3, 3, 3, 3) },
} satisfies Record<string, { start: Cost; step: Cost; finish: Cost }>;
/** The locked path: `BEGIN`, the team's lock, the tail read in one round trip; the INSERT and `COMMIT` in a second. */
const FIRST_AUDIT = cost(2, 5, 1, 1);

/** The modes of bench/runtime/step-overhead.ts (STEP_VARIANTS): what the tool is declared, whether the run's budget has a limit. */
const MODES = [
  { key: 'strict', idempotentTool: false, limitedBudget: true },
  { key: 'idempotent', idempotentTool: true, limitedBudget: false },
  { key: 'nonIdempotent', idempotentTool: false, limitedBudget: false },
] as const;

const HOUR = 3_600_000;
let counter: StatementCounter;
/** The counts at each model call of the run being measured. */
let atModelCalls: StatementCounts[] = [];

/** No statement sent and unanswered, no connection checked out or waited for. */
const quiet = () => counter.inFlight === 0 && s.worker.pool.waitingCount === 0 && s.worker.pool.idleCount === s.worker.pool.totalCount;

const nextMacrotask = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The faux model, answering only once the session's writes have settled, as a real model call
 * (slower than a commit) does. What an effect that may run ahead lets the write unit send in the
 * background (group commit) would otherwise depend on how fast Postgres answers; this way every
 * count is the same on every machine. It also marks where each step begins.
 */
function settledModel(inner: ModelPort): ModelPort {
  return {
    async complete(request, options) {
      // Twice in a row, a macrotask apart: a background write is started from setImmediate.
      for (let calm = 0; calm < 2; ) {
        await nextMacrotask();
        if (quiet()) calm++;
        else {
          calm = 0;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      }
      atModelCalls.push(counter.peek());
      return inner.complete(request, options);
    },
  };
}

// Long intervals: no lease renewal, reconcile pass or approval sweep runs during the test (the
// idle window below shows it).
const s = setUpRuntimeSuite('step-statements', {
  leaseTtlMs: HOUR,
  reconcileIntervalMs: HOUR,
  approvalSweepIntervalMs: HOUR,
  createModel: (endpoint, key) => settledModel(createModelForEndpoint(endpoint, key)),
});

beforeAll(() => {
  // Before any run: every connection is checked out after this, so every statement is seen.
  counter = new StatementCounter(s.worker.pool);
});

const only = (c: StatementCounts): Cost => cost(c.roundTrips, c.statements, c.commits, c.writeCommits);
const plus = (a: Cost, b: Cost): Cost => cost(a.roundTrips + b.roundTrips, a.statements + b.statements, a.commits + b.commits, a.writeCommits + b.writeCommits);
const times = (a: Cost, n: number): Cost => cost(a.roundTrips * n, a.statements * n, a.commits * n, a.writeCommits * n);

/** Runs one TURNS-step run in `mode` and returns its counts, split at its model calls. */
async function measure(mode: (typeof MODES)[number]) {
  const teamId = await createTestTeam(s.t.db, {
    policy: { version: 1, name: 'allow all', default: 'allow', breakers: { noProgress: { enabled: false } } },
  });
  const tools = testToolSpecs.map((t) => (t.name === 'echo' ? { ...t, idempotent: mode.idempotentTool } : t));
  const script: ScriptTurn[] = Array.from({ length: TURNS }, (_, i) => ({ calls: [{ tool: 'echo', args: { text: `turn ${i}` } }] }));
  script.push({ finish: 'done' });
  const agent = await createTestAgent(s.t.db, teamId, { script });
  // A limit far above what the run spends: every model call's spend is reserved before it starts.
  const run = await createTestRun(s.t.db, agent, { config: { tools, toolLoading: 'eager' }, ...(mode.limitedBudget ? { budget: { tokens: 1e12 } } : {}) });
  counter.take();
  atModelCalls = [];
  const started = performance.now();
  await s.client.enqueue({ ...run, reason: 'start' });
  expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
  // The job is done (the session released, the post-finish checks sent) and every answer is in.
  await waitFor(() => (s.worker.runtime.activeSessions === 0 && quiet()) || undefined, 20_000, 'the job to end');
  const ms = performance.now() - started;
  const { counts, sent } = counter.take();
  const marks = [...atModelCalls];
  expect(marks).toHaveLength(TURNS + 1);
  const steps = marks.slice(1).map((at, i) => only(countsBetween(at, marks[i]!)));
  return {
    ms,
    counts,
    split: { start: only(marks[0]!), firstStep: steps[0]!, steps: steps.slice(1), finish: only(countsBetween(counts, marks[TURNS]!)) },
    sent: sent.map((q) => `${q.label} (${q.statements} statements, ${q.commits} commits)`).join('\n'),
  };
}

/** Waits `ms` with no run, and returns what the pool sent meanwhile (the background loops'). */
async function idleWindow(ms: number): Promise<StatementCounts> {
  counter.take();
  await new Promise((resolve) => setTimeout(resolve, ms));
  await waitFor(() => quiet() || undefined, 20_000, 'the pool to be idle');
  return counter.take().counts;
}

describe(`statements per step (${TURNS} steps of one tool call each)`, () => {
  for (const mode of MODES) {
    it(`${mode.key}: the round trips, statements and commits of ARCHITECTURE.md`, async () => {
      const { ms, counts, split, sent } = await measure(mode);
      const { start, step, finish } = EXPECTED[mode.key];
      // The statements sent, in order, say where a difference comes from.
      expect(split, sent).toEqual({
        start,
        firstStep: plus(step, FIRST_AUDIT),
        steps: Array.from({ length: TURNS - 1 }, () => step),
        finish,
      });
      expect(counts, sent).toEqual({
        ...plus(plus(start, finish), plus(times(step, TURNS), FIRST_AUDIT)),
        rollbacks: 0,
        failures: 0,
      });
      // None of it came from the background loops: as long a window with no run sends nothing.
      expect(await idleWindow(ms)).toEqual({ roundTrips: 0, statements: 0, commits: 0, writeCommits: 0, rollbacks: 0, failures: 0 });
    });
  }
});
