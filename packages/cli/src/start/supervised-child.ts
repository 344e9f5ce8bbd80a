import type { Printer } from '../printer';
import { describeExit, type ChildExit, type ManagedChild } from './children';
import { RestartBackoff } from './restart-backoff';
import type { SupervisedName, SupervisorState } from './supervisor-state';

/** Lines of a dead child's output repeated in its restart message (the rest is in the scrollback). */
const TAIL_LINES = 10;

export interface SupervisedChildOptions {
  name: SupervisedName;
  /** Starts one instance of the child (the first one and every restart). */
  spawn: () => Promise<ManagedChild>;
  /** Stops a running instance (signal, grace period, SIGKILL). */
  stop: (child: ManagedChild) => Promise<void>;
  printer: Printer;
  /** Where restarts are counted (and published for `/metrics`). */
  state: SupervisorState;
  backoff?: RestartBackoff;
  /** Called with each instance once it runs, the first included (e.g. to record its pid). */
  onSpawn?: (child: ManagedChild) => Promise<void>;
  /** The child cannot be kept running: it died before {@link SupervisedChild.arm}, or a restart failed. */
  onFatal: (message: string) => void;
}

/**
 * One web or worker process of `looplane start`, kept running: an unexpected exit is logged with
 * its reason and last output lines and the child is started again after a {@link RestartBackoff}
 * delay. Before {@link arm} (while the stack comes up) an exit is fatal instead, so a broken
 * configuration stops the start with its error rather than restarting forever.
 */
export class SupervisedChild {
  private child: ManagedChild;
  private startedAt = Date.now();
  private armed = false;
  private stopping = false;
  private readonly backoff: RestartBackoff;
  private readonly wake = new AbortController();
  private restarting: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: SupervisedChildOptions,
    first: ManagedChild,
  ) {
    this.child = first;
    this.backoff = options.backoff ?? new RestartBackoff();
  }

  /** Starts the first instance and watches it. */
  static async start(options: SupervisedChildOptions): Promise<SupervisedChild> {
    const supervised = new SupervisedChild(options, await options.spawn());
    await options.onSpawn?.(supervised.child);
    supervised.watch(supervised.child);
    return supervised;
  }

  /** The running instance (or the last one, while a restart waits). */
  get current(): ManagedChild {
    return this.child;
  }

  /** From now on an unexpected exit restarts the child instead of failing. */
  arm(): void {
    this.armed = true;
  }

  /** Stops the child for good: no restart after this, a pending one is cancelled. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    await this.restarting;
    await this.options.stop(this.child);
  }

  private watch(child: ManagedChild): void {
    void child.exited.then((exit) => {
      if (this.stopping || child.stopping) return;
      if (!this.armed) {
        const tail = child.tail.text();
        this.options.onFatal(`${child.name} ${describeExit(exit)} unexpectedly${tail ? `; its last output:\n${tail}` : ''}`);
        return;
      }
      this.restarting = this.restart(child, exit).catch((error: unknown) => {
        this.options.onFatal(`could not restart ${child.name}: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
  }

  private async restart(dead: ManagedChild, exit: ChildExit): Promise<void> {
    const { name, printer } = this.options;
    const delayMs = this.backoff.next(Date.now() - this.startedAt);
    const tail = dead.tail.text(TAIL_LINES);
    printer.warn(`${name} ${describeExit(exit)} unexpectedly; restarting it in ${delayMs / 1000} s${tail ? `. Its last output:\n${tail}` : ''}`);
    // What the dead child left in its process group (sandboxes, proxies) goes with it.
    await dead.stop('SIGTERM', 5000);
    await this.sleep(delayMs);
    if (this.stopping) return;
    const child = await this.options.spawn();
    this.child = child;
    this.startedAt = Date.now();
    const count = await this.options.state.countRestart(name);
    await this.options.onSpawn?.(child);
    printer.info(`Restarted the ${name} (pid ${child.pid}; ${count} restart${count === 1 ? '' : 's'} so far).`);
    this.watch(child);
  }

  /** Waits `ms`, or less when {@link stop} is called meanwhile. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.wake.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      this.wake.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}
