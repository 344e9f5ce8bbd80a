// Reading and writing results files: `bench/results/<YYYY-MM-DD>-<shortcommit>.json` for a full
// run (kept in the repository), a folder of one's choosing for `--quick` (never bench/results).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FigureReportSchema, ResultsSchema, type Figure, type Results } from './schema';

/** A run-all results file's name (the workspace bench writes `<date>-<commit>-workspace-snapshots.json` beside them). */
const RESULTS_FILE = /^(\d{4}-\d{2}-\d{2})-([0-9a-f]+|unknown)(-\d+)?\.json$/;

/** Whether `name` is a run-all results file's (not another bench's file beside them). */
export const isResultsFileName = (name: string) => RESULTS_FILE.test(name);

export function resultsFileName(date: Date, shortCommit: string): string {
  return `${date.toISOString().slice(0, 10)}-${shortCommit}.json`;
}

/** The figures among a benchmark's printed JSON lines, and why any line with `figures` did not fit the format. */
export function figuresOf(reports: unknown[]): { figures: Figure[]; formatErrors: string[] } {
  const figures: Figure[] = [];
  const formatErrors: string[] = [];
  for (const report of reports) {
    if (typeof report !== 'object' || report === null || !('figures' in report)) continue;
    const parsed = FigureReportSchema.safeParse(report);
    if (parsed.success) figures.push(...parsed.data.figures);
    else formatErrors.push(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  return { figures, formatErrors };
}

export function readResults(file: string): Results {
  return ResultsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The newest run-all results file in `dir` (by the date it records), or undefined when there is none. */
export function newestResultsFile(dir: string): string | undefined {
  let best: { file: string; date: string } | undefined;
  for (const name of readdirSync(dir)) {
    if (!isResultsFileName(name)) continue;
    const file = join(dir, name);
    const parsed = ResultsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success || parsed.data.quick) continue;
    if (!best || parsed.data.date > best.date) best = { file, date: parsed.data.date };
  }
  return best?.file;
}
