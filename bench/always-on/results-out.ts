// Where the always-on benchmarks keep their raw results: `bench/results/<date>-<commit>-<name>.json`
// for a full run (kept in the repository, beside the run-all files), a temp file for `--quick`. The
// file records the commit (and the measured code's uncommitted paths), the machine with its load
// average at the start and the end, and everything the benchmark measured.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine } from '../report/machine';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The code whose changes move these figures: its uncommitted paths are recorded with the results. */
const MEASURED_CODE = ['bench/always-on', 'bench/sse', 'apps/worker/src', 'packages/api/src', 'packages/db/src', 'packages/queue/src', 'packages/webhooks/src'];

const loadNow = () => loadavg().map((l) => Number(l.toFixed(2)));

function commitInfo() {
  const git = (args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  try {
    const dirty = git(['status', '--porcelain', '--', ...MEASURED_CODE])
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.slice(3));
    return { sha: git(['rev-parse', 'HEAD']), short: git(['rev-parse', '--short', 'HEAD']), measuredCodeDirty: dirty };
  } catch {
    return { sha: 'unknown', short: 'unknown', measuredCodeDirty: [] as string[] };
  }
}

export interface ResultsRecorder {
  started: Date;
  /** Writes the file (with the load average at the end) and returns its path. */
  write(report: Record<string, unknown>): Promise<string>;
}

/** Call at the start of a benchmark: notes the date, the commit, the machine and the load average now. */
export async function recordResults(name: string, quick: boolean): Promise<ResultsRecorder> {
  const started = new Date();
  const commit = commitInfo();
  const machine = await describeMachine();
  return {
    started,
    async write(report) {
      const date = started.toISOString().slice(0, 10);
      const file = quick
        ? join(tmpdir(), `looplane-bench-${date}-${commit.short}-${name}-quick-${process.pid}.json`)
        : join(root, 'bench', 'results', `${date}-${commit.short}-${name}.json`);
      const content = {
        bench: name,
        quick,
        date: started.toISOString(),
        commit,
        machine: { ...machine, loadAverage: { start: machine.loadAverage.start, end: loadNow() } },
        ...report,
      };
      await writeFile(file, `${JSON.stringify(content, null, 1)}\n`);
      return file;
    },
  };
}
