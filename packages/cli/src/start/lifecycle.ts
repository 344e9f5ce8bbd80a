import type { Printer } from '../printer';
import { describeExit, type ManagedChild } from './children';
import { signalGroup } from './proc';
import type { SupervisedChild } from './supervised-child';

/** Why the stack is coming down. */
export type StopReason = { kind: 'signal'; signal: NodeJS.Signals } | { kind: 'failure'; message: string };

/** A second Ctrl-C within this window is the same keypress (npm forwards the terminal's SIGINT). */
const FORCE_DEBOUNCE_MS = 1500;

/**
 * The ordered teardown of `looplane start` (and `looplane worker`): everything started registers
 * how to stop it, and {@link stopAll} stops in reverse order (web and worker before redis and
 * Postgres). The first SIGINT/SIGTERM, or an unexpected exit of a child that is not supervised,
 * aborts {@link signal}; a second Ctrl-C SIGKILLs every known process group and exits at once.
 */
export class Lifecycle {
  private readonly controller = new AbortController();
  // A supervised child's process group changes with each restart: read when needed.
  private readonly stops: { name: string; stop: () => Promise<void>; pgid?: () => number }[] = [];
  private firstSignalAt = 0;

  /** `label` names what stops in the Ctrl-C message ("Looplane", "the worker"). */
  constructor(
    private readonly printer: Printer,
    private readonly label = 'Looplane',
  ) {}

  /** Aborted when the stack must come down; its reason is a {@link StopReason}. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The reason once aborted. */
  get reason(): StopReason | undefined {
    return this.signal.aborted ? (this.signal.reason as StopReason) : undefined;
  }

  /** Resolves with the reason when the stack must come down. */
  stopped(): Promise<StopReason> {
    if (this.signal.aborted) return Promise.resolve(this.signal.reason as StopReason);
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(this.signal.reason as StopReason), { once: true }));
  }

  /** Registers a cleanup step; steps run newest first. */
  add(name: string, stop: () => Promise<void>, pgid?: number): void {
    this.stops.push({ name, stop, ...(pgid === undefined ? {} : { pgid: () => pgid }) });
  }

  /** Registers a supervised child: stopped in order like any child, its restarts are its own affair. */
  supervise(name: string, child: SupervisedChild): void {
    this.stops.push({ name, stop: () => child.stop(), pgid: () => child.current.pid });
  }

  /** Registers a child: stopped in reverse order, and its unexpected exit brings everything down. */
  manage(child: ManagedChild, stop: () => Promise<void> = () => child.stop()): void {
    this.add(child.name, stop, child.pid);
    void child.exited.then((exit) => {
      if (child.stopping || this.signal.aborted) return;
      const tail = child.tail.text();
      this.fail(`${child.name} ${describeExit(exit)} unexpectedly${tail ? `; its last output:\n${tail}` : ''}`);
    });
  }

  /** Brings the stack down because something failed. */
  fail(message: string): void {
    if (!this.signal.aborted) this.controller.abort({ kind: 'failure', message } satisfies StopReason);
  }

  /** Installs SIGINT/SIGTERM/SIGHUP and exit handlers; returns a function that removes them. */
  handleSignals(): () => void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.firstSignalAt === 0) {
        // The first signal asks for a clean stop, also when one is already under way (a failure).
        this.firstSignalAt = Date.now();
        this.printer.info(`\nStopping ${this.label} (${signal})… press Ctrl-C again to force.`);
        if (!this.signal.aborted) this.controller.abort({ kind: 'signal', signal } satisfies StopReason);
        return;
      }
      if (Date.now() - this.firstSignalAt < FORCE_DEBOUNCE_MS) return;
      this.printer.warn(`forced stop: killing every process ${this.label} started`);
      for (const { pgid } of this.stops) if (pgid !== undefined) signalGroup(pgid(), 'SIGKILL');
      process.exit(130);
    };
    // Safety net: should the CLI itself crash, its children (in their own process groups) must
    // not outlive it. After a normal stopAll() nothing is left to signal.
    const onExit = () => {
      for (const { pgid } of this.stops) if (pgid !== undefined) signalGroup(pgid(), 'SIGTERM');
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, onSignal);
    process.on('exit', onExit);
    return () => {
      for (const signal of signals) process.off(signal, onSignal);
      process.off('exit', onExit);
    };
  }

  /** Runs every cleanup step, newest first; a failing step is reported and the rest still run. */
  async stopAll(): Promise<void> {
    // Popped only once stopped: a forced stop meanwhile still reaches the step in progress, and
    // never signals a group id that was already released (and may have been reused).
    for (let step = this.stops.at(-1); step; step = this.stops.at(-1)) {
      try {
        await step.stop();
      } catch (error) {
        this.printer.warn(`could not stop ${step.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      this.stops.pop();
    }
  }
}
