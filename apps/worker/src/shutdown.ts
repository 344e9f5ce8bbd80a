import type { Logger } from 'pino';

/**
 * Shutdown phases, in the order they run (STYLE.md 8): stop taking work (heartbeat, queue intake),
 * close what is running (queue consumers finish or abort at a step boundary), flush buffers,
 * then disconnect from Postgres and Redis.
 */
const PHASES = ['stop-intake', 'close', 'flush', 'disconnect'] as const;
export type Phase = (typeof PHASES)[number];

export interface ShutdownOptions {
  logger: Logger;
  /** After this long the process exits with code 1 whatever is still running (default 10 s). */
  timeoutMs?: number;
  /** Injected in tests; process.exit otherwise. */
  exit?: (code: number) => void;
}

/**
 * The worker's ordered shutdown. Components register steps in a phase when they start, in any
 * order; {@link run} executes the phases in {@link PHASES} order and, within a phase, the steps
 * in registration order. A failing step is logged and the rest still run. Exit code: 0 for a
 * clean shutdown, 1 after a failure, a failing step, or the hard timeout.
 */
export class Shutdown {
  private readonly steps = new Map<Phase, { name: string; run: () => Promise<void> }[]>(PHASES.map((p) => [p, []]));
  private running: Promise<void> | undefined;
  private readonly exit: (code: number) => void;

  constructor(private readonly options: ShutdownOptions) {
    this.exit = options.exit ?? ((code) => process.exit(code));
  }

  /** Registers `run` to be awaited during `phase`. */
  register(phase: Phase, name: string, run: () => Promise<void>): void {
    this.steps.get(phase)!.push({ name, run });
  }

  /** Starts the shutdown (once; later calls return the same promise). */
  run(reason: string, exitCode = 0): Promise<void> {
    this.running ??= this.execute(reason, exitCode);
    return this.running;
  }

  /** Runs the shutdown on SIGTERM and SIGINT. */
  listen(): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void this.run(signal));
  }

  private async execute(reason: string, exitCode: number): Promise<void> {
    const { logger } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    logger.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out; exiting anyway');
      this.exit(1);
    }, timeoutMs);
    timer.unref();
    let code = exitCode;
    for (const phase of PHASES) {
      for (const step of this.steps.get(phase)!) {
        try {
          await step.run();
          logger.debug({ phase, step: step.name }, 'shutdown step done');
        } catch (error) {
          code = 1;
          logger.error({ err: error, phase, step: step.name }, 'shutdown step failed');
        }
      }
    }
    clearTimeout(timer);
    logger.info({ code }, 'worker stopped');
    this.exit(code);
  }
}
