import {
  isTerminalRunStatus,
  PgBudgetLedger,
  PgPathLedger,
  PgEventStore,
  WriteUnit,
  cancelRequest,
  loadSessionEvents,
  pendingInbox,
  type ClaimedSession,
  type FlushBatcher,
  type PgPool,
  type ReleaseOutcome,
  type SessionContext,
  type SessionLease,
} from '@looplane/db';
import {
  apply,
  cancelRun,
  createEvent,
  drive,
  fold,
  initialState,
  next,
  type Clock,
  type DriveOutcome,
  type NewEvent,
  type RunState,
  type RunStartedEvents,
} from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { Logger } from 'pino';
import { IsolationUnavailableError, WorkspaceUnavailableError } from '../sessions/workspace-unavailable';
import type { ModelFactory } from '../ports/model-factory';
import type { TeamPolicies } from '../ports/team-policy';
import type { ToolRegistry } from '../tools/tool-registry';
import type { SessionHandle } from './active-sessions';
import type { ApprovalGate } from './approval-gate';
import type { LeaseKeeper } from './lease-keeper';
import type { LiveEvents } from './live-events';
import { resolveWait } from './wake-ups';
import type { BreakerDeps } from '../breakers/session-breakers';
import { WorkspaceRestores } from './workspace-restores';
import { seedSession } from './session-seeding';
import { SessionEnginePorts } from './session-engine-ports';
import { SessionRelease, type SessionEnd } from './session-release';

export interface SessionRunDeps {
  pool: PgPool;
  /** The worker's group commit, shared by every session it drives. */
  batcher: FlushBatcher;
  owner: string;
  leaseTtlMs: number;
  live: LiveEvents;
  models: ModelFactory;
  tools: ToolRegistry;
  keeper: LeaseKeeper;
  clock: Clock;
  logger: Logger;
  /** The team policies tool calls are judged by, and the approval rows of approval waits. */
  policies: TeamPolicies;
  approvals: ApprovalGate;
  /** The policy's breakers, checked on every call the policy allows. */
  breakers: BreakerDeps;
  /** Builds `run.started`, validating each distinct config snapshot once. */
  runStarted: RunStartedEvents;
}

export type { SessionEnd } from './session-release';

export interface SessionRunResult {
  end: SessionEnd;
  /** What the releasing statement saw pending (a wake-up that raced the release). */
  release: ReleaseOutcome | null;
}

/** Wake-ups resolved within one job before it yields (a guard against a resolver that never settles). */
const MAX_ROUNDS = 1000;

/**
 * One claimed session, from claim to release (reads go through the write unit: a session that
 * holds a connection never asks the pool for a second one): start it, apply cancel requests, inbox messages
 * and wake-ups at step boundaries, drive the engine, and release the lease in the state the log
 * says (finished, waiting, or running for another worker after a shutdown).
 */
export class SessionRun {
  private readonly lease: SessionLease;
  private readonly unit: WriteUnit;
  private readonly store: PgEventStore;
  private readonly budget: PgBudgetLedger;
  private logger: Logger | null = null;
  private state: RunState | null = null;
  private readonly ports: SessionEnginePorts;
  private readonly releases: SessionRelease;
  private cancelChecked = false;
  /** Whether the inbox may hold messages or restore requests (from the context read; then from notices). */
  private inboxFlagged: boolean;
  private readonly restores: WorkspaceRestores;

  constructor(
    private readonly deps: SessionRunDeps,
    private readonly context: SessionContext,
    claim: ClaimedSession,
    private readonly handle: SessionHandle,
  ) {
    this.lease = { runId: context.runId, sessionId: context.sessionId, owner: deps.owner, version: claim.version };
    this.unit = new WriteUnit(deps.pool, {
      lease: this.lease,
      leaseTtlMs: deps.leaseTtlMs,
      onDurable: (append) => deps.live.durable(context.teamId, context.isMain, append),
      batcher: deps.batcher,
      // The worker's chain tails, shared with its PolicyAudit: rows a flush carries continue its rows.
      audit: { tails: deps.breakers.audit.tails, append: (entry) => deps.breakers.audit.record(entry) },
    });
    this.store = new PgEventStore({ pool: deps.pool, unit: this.unit });
    // A graph run's session pre-authorises on every ledger from the root to it (swarm/path-ledger.ts).
    this.budget = context.graphRun ? new PgPathLedger(this.unit) : new PgBudgetLedger(this.unit, { tokensOrCost: context.limitedSpend });
    this.inboxFlagged = context.inboxPending || context.restorePending;
    const restorer = deps.tools.filesRestorer();
    this.restores = new WorkspaceRestores({
      unit: this.unit,
      store: this.store,
      clock: deps.clock,
      sessionId: context.sessionId,
      restorer,
      log: () => this.log,
    });
    this.ports = new SessionEnginePorts({
      deps,
      context,
      unit: this.unit,
      store: this.store,
      budget: this.budget,
      state: () => this.state,
      log: () => this.log,
    });
    this.releases = new SessionRelease(deps, this.lease, context, () => this.log);
    this.fresh = claim.lastSeq === 0 && !claim.parentId;
  }

  /** The log was empty when claimed: there is nothing to load. */
  private readonly fresh: boolean;

  /** The session's child logger, made on first use (most sessions never log). */
  private get log(): Logger {
    this.logger ??= this.deps.logger.child({
      runId: this.context.runId,
      sessionId: this.context.sessionId,
      teamId: this.context.teamId,
      lease: this.lease.version,
    });
    return this.logger;
  }

  async execute(): Promise<SessionRunResult> {
    this.handle.lease = { version: this.lease.version };
    this.handle.busyPolicy = this.context.busyPolicy;
    this.deps.keeper.track(this.handle);
    try {
      this.state = this.fresh ? initialState() : fold(await loadSessionEvents(this.deps.pool, this.lease.sessionId));
      const end = await this.loop(this.state);
      await this.unit.flush();
      return { end, release: await this.release(end) };
    } catch (error) {
      await this.unit.discard();
      if (this.handle.has('lease-lost') || (error instanceof AppError && error.code === 'CONFLICT')) {
        this.log.warn({ err: error }, 'lost the session lease; another worker continues it');
        return { end: { kind: 'lost' }, release: null };
      }
      await this.releases.forRetry();
      throw error;
    } finally {
      this.deps.keeper.untrack(this.handle);
      // Per-job tool resources (the run's egress proxy) end with the job.
      await this.deps.tools.sessionEnded({ sessionId: this.context.sessionId, graphRun: this.context.graphRun });
    }
  }

  private async loop(state: RunState): Promise<SessionEnd> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (this.handle.has('lease-lost')) throw new AppError('CONFLICT', `lost the lease on session ${this.lease.sessionId}`);
      if (this.handle.has('shutdown')) return { kind: 'handoff' };
      if (await this.cancelIfRequested(state)) return { kind: 'finished' };
      if (round === 0 && (await this.openBranch(state)) === 'refinished') return { kind: 'finished' };
      if (state.status === 'new') await this.start(state);
      if (isTerminalRunStatus(state.status)) return { kind: 'finished' };
      await this.consumeInbox(state);
      const action = next(state);
      if (action.kind === 'done') return { kind: 'finished' };
      if (action.kind === 'wait') {
        const events = await resolveWait(action, {
          db: this.unit.reader,
          runId: this.lease.runId,
          sessionId: this.lease.sessionId,
          state,
          clock: this.deps.clock,
          isolationLevels: () => this.deps.tools.isolationLevels(),
          approvals: this.deps.approvals,
          policy: this.ports.teamPolicy(),
        });
        if (!events) return { kind: 'waiting', reason: action.reason, refs: action.refs, seq: state.lastSeq };
        await this.append(state, events);
        // A wait that ends in another (an edited call asked again under four-eyes): the resolvers
        // read Postgres, so the new request must be durable before the next look at it.
        if (next(state).kind === 'wait') await this.unit.flush();
        continue;
      }
      let outcome: DriveOutcome;
      try {
        outcome = await this.drive(state);
      } catch (error) {
        if (!(error instanceof WorkspaceUnavailableError || error instanceof IsolationUnavailableError)) throw error;
        // Never an agent working on an empty tree, nor a call run weaker than its template allows: the session ends, saying why.
        await this.unit.flush();
        await this.append(state, [createEvent('run.finished', { status: 'failed', error: error.message }, this.deps.clock)]);
        this.log.warn({ reason: error.message }, 'session failed: its workspace or the isolation its calls need cannot be had');
        return { kind: 'finished' };
      }
      // The end of a drive is a flush point: what the next step reads (a refused reservation, a
      // finished run) is durable, and watchers see it.
      await this.unit.flush();
      if (this.deps.logger.isLevelEnabled('debug')) this.log.debug({ outcome, lastSeq: state.lastSeq }, 'drive ended');
    }
    this.log.warn({ rounds: MAX_ROUNDS }, 'session did not settle; handing it over');
    return { kind: 'handoff' };
  }

  private async drive(state: RunState): Promise<DriveOutcome> {
    const ports = this.ports.forDrive(state);
    const { signal, stopSignal } = this.handle.beginDrive();
    try {
      const result = await drive({ ports, state, signal, stopSignal });
      return result.outcome;
    } finally {
      this.handle.endDrive();
      // After an abort, a streamed delta may still be on its way to the unit: let it land first.
      await this.unit.idle();
    }
  }

  /** A cancel request (from the run row, the live bus or a renewal) ends the run, recording who asked. */
  private async cancelIfRequested(state: RunState): Promise<boolean> {
    const flagged = this.handle.take('cancel');
    if (!flagged && (this.cancelChecked || !this.context.cancelRequestedAt)) return false;
    this.cancelChecked = true;
    const request = await cancelRequest(this.unit.reader, this.lease.runId);
    if (!request || isTerminalRunStatus(state.status)) return false;
    const reason = request.byUserId ? `cancelled by user ${request.byUserId}` : 'cancelled on request';
    if (state.status === 'new') await this.append(state, [createEvent('run.finished', { status: 'cancelled', error: reason }, this.deps.clock)]);
    else await cancelRun({ store: this.store, budget: this.budget, clock: this.deps.clock }, state, reason);
    this.log.info({ cancelledBy: request.byUserId, requestedAt: request.requestedAt }, 'run cancelled');
    return true;
  }

  /**
   * Session trees (`sessions.fork` / `sessions.resume`). A fork's log so far is its parent's, up
   * to `forkSeq`: its first own event is `session.forked`, with the branch's config when the fork
   * changed it (the API then snapshots a full config on the row; otherwise the row's is `{}`). A
   * log that says finished on a claimed row was reopened by `sessions.resume` (a finished row is
   * never claimable, and the flush that finishes a log marks its row in the same statement): it
   * continues with `run.resumed`; the new instruction follows from the inbox. A replay branch
   * (`sessions.replay`) carries its marker into `session.forked`, from the row. A finished log
   * reopened by `sessions.restore` alone (no instruction waits) gets its restores and finishes
   * again as it was (`WorkspaceRestores`).
   */
  private async openBranch(state: RunState): Promise<'open' | 'refinished'> {
    const { parentId, forkSeq, configJson } = this.context;
    if (parentId && forkSeq !== null && state.lastSeq === forkSeq) {
      const config: unknown = JSON.parse(configJson);
      const own = config !== null && typeof config === 'object' && Object.keys(config).length > 0 ? { config: config as never } : {};
      const replay = this.context.replay ? { replay: this.context.replay as never } : {};
      await this.append(state, [createEvent('session.forked', { parentSessionId: parentId, atSeq: forkSeq, ...own, ...replay }, this.deps.clock)]);
    } else if (isTerminalRunStatus(state.status)) {
      if (this.context.restorePending && !this.context.inboxPending) {
        await this.restores.apply(state, { refinish: true });
        return 'refinished';
      }
      await this.append(state, [createEvent('run.resumed', { reason: 'operator', note: 'resumed with a new instruction' }, this.deps.clock)]);
    }
    return 'open';
  }

  /**
   * The first events: where the files came from when the run names any (`workspace.seeded`, see
   * `SessionSeeding`), then the goal and the config snapshot. Files that cannot be had, or a config
   * the engine refuses, fail the run visibly before any model call.
   */
  private async start(state: RunState): Promise<void> {
    const seeded = await seedSession(this.context, state, this.deps.tools.workspaceSeeder(), this.deps.clock, this.log);
    if ('failed' in seeded) {
      await this.append(state, [createEvent('run.finished', { status: 'failed', error: seeded.failed }, this.deps.clock)]);
      return;
    }
    let started: NewEvent;
    try {
      started = this.deps.runStarted.create(this.context.goal, this.context.configJson, seeded.repository);
    } catch (error) {
      const reason = error instanceof AppError ? error.message : 'the run config is unreadable';
      await this.append(state, [createEvent('run.finished', { status: 'failed', error: reason }, this.deps.clock)]);
      return;
    }
    await this.append(state, [...seeded.events, started]);
    // Where the files stand is read from Postgres before the first tool call (SessionWorkspaces.prepare).
    if (seeded.events.length > 0) await this.unit.flush();
  }

  /**
   * Inbox messages become `message.added` events; the rows are marked consumed by the same flush.
   * The inbox is read only when flagged (by the context read, a live notice, a lease renewal).
   * Restore requests come the same way and go first: a message may speak of the restored files.
   */
  private async consumeInbox(state: RunState): Promise<void> {
    const flagged = this.handle.take('inbox') || this.inboxFlagged;
    if (!flagged || state.status !== 'running') return;
    this.inboxFlagged = false;
    await this.restores.apply(state);
    const messages = await pendingInbox(this.unit.reader, this.lease.sessionId);
    if (messages.length === 0) return;
    const events = messages.map((m) => createEvent('message.added', { role: 'user', text: m.text }, this.deps.clock));
    const stored = await this.store.appendConsuming(
      events,
      state.lastSeq,
      messages.map((m) => m.id),
    );
    for (const event of stored) apply(state, event);
  }

  private async append(state: RunState, events: NewEvent[]): Promise<void> {
    const stored = await this.store.append(events, state.lastSeq);
    for (const event of stored) apply(state, event);
  }

  private async release(end: SessionEnd): Promise<ReleaseOutcome | null> {
    // The flush that finished the session released its lease already.
    if (end.kind === 'finished' && this.state && isTerminalRunStatus(this.state.status)) return null;
    return this.releases.leaveOpen(end, this.state);
  }
}
