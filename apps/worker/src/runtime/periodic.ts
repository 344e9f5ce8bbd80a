/**
 * Runs `pass` again and again, `intervalMs` apart (±25 % jitter, so the workers of a fleet do not
 * all sweep in lockstep), never two passes at once. `stop` cancels the next pass and waits for
 * the one in flight. The timer does not keep the process alive.
 */
export class Periodic {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
  ) {}

  start(): void {
    const schedule = () => {
      const delay = this.intervalMs * (0.75 + Math.random() / 2);
      this.timer = setTimeout(() => {
        // A pass reports its own failures; one that throws anyway must not stop the schedule.
        this.running = this.pass()
          .catch(() => undefined)
          .finally(() => {
            if (this.timer) schedule();
          });
      }, delay);
      this.timer.unref();
    };
    schedule();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
