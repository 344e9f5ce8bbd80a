import 'server-only';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** The part of `looplane start`'s supervisor file (LOOPLANE_SUPERVISOR_STATE) read here. */
const stateSchema = z.object({ restarts: z.record(z.string().regex(/^[a-z-]{1,32}$/), z.number().int().nonnegative()) });

/**
 * `looplane_process_restarts_total{process}` as Prometheus text: how often `looplane start`
 * restarted its web and worker processes, read from its state file at each scrape. Empty when the
 * web does not run under `looplane start`, or the file cannot be read.
 */
export async function supervisorRestartsText(file: string | undefined): Promise<string> {
  if (!file) return '';
  const state = await readFile(file, 'utf8').then(
    (text) => stateSchema.safeParse(JSON.parse(text)),
    () => null,
  );
  if (!state?.success) return '';
  const samples = Object.entries(state.data.restarts).map(([name, count]) => `looplane_process_restarts_total{process="${name}"} ${count}`);
  return [
    '# HELP looplane_process_restarts_total Restarts of the web and worker processes by the looplane start supervisor',
    '# TYPE looplane_process_restarts_total counter',
    ...samples,
    '',
  ].join('\n');
}
