/** Why a drive was cut short. */
export type Interruption = 'cancel' | 'inbox' | 'shutdown' | 'lease-lost';

/**
 * The in-process control of one session a job is working on: signals into its current drive and
 * the reasons they were sent. A drive gets an abort signal (in-flight model and tool calls stop,
 * nothing is recorded for that step) and a stop signal (stop at the next step boundary).
 */
export class SessionHandle {
  /** Set once the session is claimed: what the lease keeper renews. */
  lease: { version: number } | null = null;
  /** The run's busy policy: `interrupt` aborts the current step for a message; otherwise it waits for the boundary. */
  busyPolicy = 'enqueue';
  /** A wake-up job (resume, start, reconcile) arrived while this session was being worked on. */
  missedWakeUp = false;
  private readonly pending = new Set<Interruption>();
  private drive: { abort: AbortController; stop: AbortController } | null = null;
  private hardShutdown = false;

  constructor(
    readonly sessionId: string,
    readonly runId: string,
  ) {}

  /** Signals for the next drive; an interruption that is already pending applies at once. */
  beginDrive(): { signal: AbortSignal; stopSignal: AbortSignal } {
    this.drive = { abort: new AbortController(), stop: new AbortController() };
    for (const reason of this.pending) this.signal(reason);
    return { signal: this.drive.abort.signal, stopSignal: this.drive.stop.signal };
  }

  endDrive(): void {
    this.drive = null;
  }

  /** Records an interruption and signals the running drive, if any. */
  interrupt(reason: Interruption, options: { hard?: boolean } = {}): void {
    if (reason === 'shutdown' && options.hard) this.hardShutdown = true;
    this.pending.add(reason);
    this.signal(reason);
  }

  has(reason: Interruption): boolean {
    return this.pending.has(reason);
  }

  /** Clears an interruption once handled; true if it was pending. */
  take(reason: Interruption): boolean {
    return this.pending.delete(reason);
  }

  private signal(reason: Interruption): void {
    if (!this.drive) return;
    const abort =
      reason === 'cancel' || reason === 'lease-lost' || (reason === 'inbox' && this.busyPolicy === 'interrupt') || (reason === 'shutdown' && this.hardShutdown);
    if (abort) this.drive.abort.abort(reason);
    else this.drive.stop.abort(reason);
  }
}

/**
 * Sessions this process is working on. A session has at most one handle: a second job for it is
 * handed to the first (a cancel or a message becomes an interruption) instead of claiming again.
 */
export class ActiveSessions {
  private readonly handles = new Map<string, SessionHandle>();
  private shutdown: { hard: boolean } | null = null;

  get size(): number {
    return this.handles.size;
  }

  get(sessionId: string): SessionHandle | undefined {
    return this.handles.get(sessionId);
  }

  /** Registers a handle synchronously (so a concurrent job for the same session sees it). */
  open(sessionId: string, runId: string): SessionHandle {
    const handle = new SessionHandle(sessionId, runId);
    this.handles.set(sessionId, handle);
    if (this.shutdown) handle.interrupt('shutdown', this.shutdown);
    return handle;
  }

  close(handle: SessionHandle): void {
    if (this.handles.get(handle.sessionId) === handle) this.handles.delete(handle.sessionId);
  }

  /** Handles of every session of a run held here. */
  forRun(runId: string): SessionHandle[] {
    return [...this.handles.values()].filter((h) => h.runId === runId);
  }

  all(): SessionHandle[] {
    return [...this.handles.values()];
  }

  /** Shutdown: every drive stops at its next step boundary (`hard`: aborts in-flight calls). */
  shutdownAll(hard: boolean): void {
    this.shutdown = { hard };
    for (const handle of this.handles.values()) handle.interrupt('shutdown', { hard });
  }
}
