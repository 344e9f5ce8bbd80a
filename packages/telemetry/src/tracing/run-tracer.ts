import { randomBytes } from 'node:crypto';
import type { Db } from '@looplane/db';
import { exportSpans } from './otlp-json';
import { runSpans, type TraceEvent } from './run-spans';

export interface RunTracerOptions {
  db: Db;
  /** OTLP/HTTP base URL (LOOPLANE_OTEL_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
  service: string;
  /** Called when a run's trace could not be exported (the run keeps its trace id). */
  onError?: (error: unknown, runId: string) => void;
  /** Runs that finished before this are never traced (default: when the tracer was made). */
  since?: Date;
}

/**
 * Exports one trace per finished run, built from its event log, and records the trace id on the
 * run. The trace id is claimed on the row first (compare-and-set), so with several workers each
 * run is exported once.
 */
export class RunTracer {
  private readonly since: Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly options: RunTracerOptions) {
    this.since = options.since ?? new Date();
  }

  /** Exports the traces of runs finished since the last pass; resolves to how many were sent. */
  async once(): Promise<number> {
    const { db } = this.options;
    const runs = await db.run.findMany({
      where: { traceId: null, finishedAt: { gte: this.since } },
      select: { id: true, teamId: true, status: true, rootSessionId: true },
      orderBy: { finishedAt: 'asc' },
      take: 50,
    });
    let sent = 0;
    for (const run of runs) {
      const traceId = randomBytes(16).toString('hex');
      const claimed = await db.run.updateMany({ where: { id: run.id, traceId: null }, data: { traceId } });
      if (claimed.count !== 1 || !run.rootSessionId) continue;
      try {
        const rows = await db.event.findMany({
          where: { runId: run.id, sessionId: run.rootSessionId },
          orderBy: { seq: 'asc' },
          select: { type: true, payload: true, createdAt: true },
        });
        const events: TraceEvent[] = rows.map((r) => ({ type: r.type, at: r.createdAt, payload: (r.payload ?? {}) as Record<string, unknown> }));
        const spans = runSpans({ runId: run.id, teamId: run.teamId, status: run.status, traceId }, events);
        if (spans.length > 0) await exportSpans(this.options.endpoint, spans, this.options.service);
        sent += 1;
      } catch (error) {
        this.options.onError?.(error, run.id);
      }
    }
    return sent;
  }

  /** Runs {@link once} every `intervalMs` until {@link stop}. */
  start(intervalMs: number): void {
    const tick = () => {
      this.running = this.once()
        .catch((error: unknown) => this.options.onError?.(error, ''))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, intervalMs).unref();
  }

  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = null;
    if (timer) clearTimeout(timer);
    await this.running;
  }
}
