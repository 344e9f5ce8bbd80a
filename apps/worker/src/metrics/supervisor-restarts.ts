import { readFile } from 'node:fs/promises';
import type { Registry } from '@looplane/telemetry';
import { Counter } from 'prom-client';
import { z } from 'zod';

/** The part of `looplane start`'s supervisor file (LOOPLANE_SUPERVISOR_STATE) read here. */
const stateSchema = z.object({ restarts: z.record(z.string().regex(/^[a-z-]{1,32}$/), z.number().int().nonnegative()) });

/**
 * `looplane_process_restarts_total{process}`: how often `looplane start` restarted its web and
 * worker processes, read from the supervisor's state file at each scrape (the counts outlive any
 * one worker). Nothing is registered when the worker does not run under `looplane start`.
 */
export function registerSupervisorRestarts(registry: Registry, file: string | undefined): void {
  if (!file) return;
  new Counter({
    name: 'looplane_process_restarts_total',
    help: 'Restarts of the web and worker processes by the looplane start supervisor',
    labelNames: ['process'],
    registers: [registry],
    async collect() {
      const state = await readFile(file, 'utf8').then(
        (text) => stateSchema.safeParse(JSON.parse(text)),
        () => null,
      );
      this.reset();
      // An unreadable file (the supervisor is writing it for the first time) leaves no samples.
      if (state?.success) for (const [process, count] of Object.entries(state.data.restarts)) this.inc({ process }, count);
    },
  });
}
