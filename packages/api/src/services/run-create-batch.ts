import { appendAuditBatch, insertQueuedRuns, type Db } from '@looplane/db';
import type { SessionJob } from '@looplane/queue';
import type { Dispatch } from '../dispatch';
import type { PreparedRun } from './run-create';
import { admitRunStarts, type RunStartLimits } from './run-start-limits';
import { BatchQueue } from '@looplane/shared';

/**
 * Commits a batch: the creates its teams' run-start limits admit (checked under the teams' chain
 * locks, taken first), their rows and their audit rows, in one transaction. Returns the refusals
 * of the others, which write nothing.
 */
async function commitRuns(db: Db, batch: readonly Pending[]): Promise<Map<Pending, Error>> {
  return db.$transaction(async (tx) => {
    const verdicts = await admitRunStarts(
      tx,
      batch.map((p) => ({ teamId: p.run.teamId, newRun: true, limits: p.limits })),
    );
    const admitted = batch.filter((_, i) => !verdicts[i]).map((p) => p.run);
    if (admitted.length > 0) {
      await insertQueuedRuns(tx, admitted);
      await appendAuditBatch(
        tx,
        admitted.map((r) => r.audit),
      );
    }
    return new Map(batch.flatMap((p, i): Array<[Pending, Error]> => (verdicts[i] ? [[p, verdicts[i]!]] : [])));
  });
}

/** After the commit: one BullMQ round trip for the batch's start jobs, and one write for the team notices. */
async function announce(dispatch: Dispatch, runs: readonly PreparedRun[]): Promise<void> {
  const jobs: SessionJob[] = runs.map((r) => ({ runId: r.runId, sessionId: r.sessionId, reason: 'start' }));
  const notices = runs.map((r) => ({ teamId: r.teamId, activity: { kind: 'run.status', runId: r.runId, status: 'queued' } as const }));
  await Promise.all([
    dispatch.enqueueSessions ? dispatch.enqueueSessions(jobs) : Promise.all(jobs.map((job) => dispatch.enqueueSession(job))),
    dispatch.teamActivities ? dispatch.teamActivities(notices) : Promise.all(notices.map((n) => dispatch.teamActivity(n.teamId, n.activity))),
  ]);
}

interface Pending {
  run: PreparedRun;
  dispatch: Dispatch;
  limits: RunStartLimits;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface RunCreateBatcherOptions {
  /** Most creates in one transaction (default 64). */
  maxBatch?: number;
  /** Transactions in flight at once (default 2). */
  parallel?: number;
}

/**
 * Group commit for runs.create in one API process. Creates submitted in the same event-loop turn,
 * or while `parallel` transactions are in flight, go together into the next one, so under load the
 * window is the time of one commit and a burst of N creates costs a few statements and one fsync
 * instead of N transactions queueing on the team's audit lock; a create alone is written at once
 * (at the end of its turn). Teams are locked in sorted order (appendAuditBatch). Every
 * create was validated before it was submitted; if a batch fails as a whole (a lost connection, a
 * constraint), each of its creates is retried alone, so one create's problem is never another's.
 * A create resolves once its rows are committed and its job enqueued, as before.
 */
export class RunCreateBatcher {
  private readonly batches: BatchQueue<Pending>;

  constructor(
    private readonly db: Db,
    options: RunCreateBatcherOptions = {},
  ) {
    this.batches = new BatchQueue((batch) => this.write(batch), { maxBatch: options.maxBatch ?? 64, parallel: options.parallel ?? 2 });
  }

  /** Resolves once the run is committed and announced; rejects with TOO_MANY_REQUESTS past the team's `limits`. */
  submit(run: PreparedRun, dispatch: Dispatch, limits: RunStartLimits): Promise<void> {
    return new Promise((resolve, reject) => this.batches.push({ run, dispatch, limits, resolve, reject }));
  }

  private async write(batch: Pending[]): Promise<void> {
    let committed: Pending[] = [];
    const settle = (part: readonly Pending[], refused: Map<Pending, Error>) => {
      for (const pending of part) {
        const refusal = refused.get(pending);
        if (refusal) pending.reject(refusal);
        else committed.push(pending);
      }
    };
    try {
      settle(batch, await commitRuns(this.db, batch));
    } catch (error) {
      committed = [];
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const pending of batch) {
        try {
          settle([pending], await commitRuns(this.db, [pending]));
        } catch (alone) {
          pending.reject(alone);
        }
      }
    }
    // Announced without holding a transaction slot: the next batch commits meanwhile. Dispatch
    // failures are swallowed and logged by the dispatch itself (the reconciler repairs a lost
    // wake-up), so a committed create succeeds.
    const byDispatch = new Map<Dispatch, Pending[]>();
    for (const pending of committed) byDispatch.set(pending.dispatch, [...(byDispatch.get(pending.dispatch) ?? []), pending]);
    for (const [dispatch, group] of byDispatch) {
      void announce(
        dispatch,
        group.map((p) => p.run),
      ).then(
        () => {
          for (const p of group) p.resolve();
        },
        (error: unknown) => {
          for (const p of group) p.reject(error);
        },
      );
    }
  }
}

const batchers = new WeakMap<Db, RunCreateBatcher>();

/** The process's batcher for a database client (one per client, so tests with their own databases never share one). */
export function runCreateBatcher(db: Db): RunCreateBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new RunCreateBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}
