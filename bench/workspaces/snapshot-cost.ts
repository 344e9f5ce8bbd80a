import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase } from '@looplane/testkit';
import { quantile } from '../compare/stats';
import { snapshotFigures, SNAPSHOT_GOALS } from './figures';
import { gitCommit, machine } from './run-info';
import { CALLS, type Env, quick, REPETITIONS, type ScenarioResult, scenario, WORKSPACES, type WorkspaceName } from './scenario';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GOAL_SMALL_P50_MS = SNAPSHOT_GOALS.smallOneFileP50Ms;
/** "Grows with the change, not the workspace": the big workspace's one-file snapshot p50 within this factor of the small one's. */
const GOAL_SCALE_FACTOR = SNAPSHOT_GOALS.scaleFactor;

// ---------- statistics ----------

/** Nearest-rank quantile of unsorted numbers (the side-by-side benches' definition). */
const quantileOf = (values: number[], q: number) =>
  quantile(
    [...values].sort((a, b) => a - b),
    q,
  );
const median = (values: number[]) => quantileOf(values, 0.5);
interface Range {
  median: number;
  min: number;
  max: number;
}
const range = (values: number[]): Range => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

// ---------- the run ----------

/** Per repetition: the p50 / p95 of a per-call series, and the median of bytes. */
function perRep(results: ScenarioResult[], pick: (r: ScenarioResult) => number[], q: number): number[] {
  return results.map((r) => quantileOf(pick(r), q));
}

async function main() {
  const loadBefore = loadavg();
  const started = new Date();
  const database = await createTestDatabase();
  const pool = createPgPool(database.url, { max: 2 });
  const reps: Array<Record<WorkspaceName, ScenarioResult>> = [];
  let postgres: Record<string, string>;
  try {
    const settings = await pool.query(
      `SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit, current_setting('shared_buffers') AS shared_buffers, current_setting('wal_level') AS wal_level`,
    );
    postgres = settings.rows[0] as Record<string, string>;
    const teamId = await createTestTeam(database.db);
    const agent = await createTestAgent(database.db, teamId);
    const env: Env = { database, pool, agent };
    // Warm-up (discarded): prepared statements, the JIT, git's and the file system's caches.
    await scenario(env, 'small', -1, { oneFile: 5, tenFile: 2 });
    for (let rep = 0; rep < REPETITIONS; rep++) {
      const small = await scenario(env, 'small', rep);
      const big = await scenario(env, 'big', rep);
      reps.push({ small, big });
      process.stderr.write(
        `repetition ${rep + 1}/${REPETITIONS}: small one-file save p50 ${median(small.oneFile.saveMs).toFixed(2)} ms, big ${median(big.oneFile.saveMs).toFixed(2)} ms, big restore ${(big.restore.totalMs / 1000).toFixed(2)} s\n`,
      );
    }
  } finally {
    await pool.end();
    await database.drop();
  }
  const loadAfter = loadavg();

  // ---------- summary ----------
  const of = (name: WorkspaceName) => reps.map((r) => r[name]);
  type Metric = { label: string; unit: string; value: Range; digits: number };
  const metrics: Metric[] = [];
  const add = (label: string, unit: string, values: number[], digits = 2) => {
    metrics.push({ label, unit, value: range(values), digits });
    return range(values);
  };
  const summary: Record<string, Range> = {};
  const workspaceLabel = (name: WorkspaceName) =>
    `${name} workspace (${of(name)[0]!.files.toLocaleString('en')} files, ${(of(name)[0]!.workTreeBytes / 1e6).toFixed(1)} MB)`;
  for (const name of ['small', 'big'] as const) {
    const rs = of(name);
    const ws = `${name} (${rs[0]!.files.toLocaleString('en')} files, ${(rs[0]!.workTreeBytes / 1e6).toFixed(1)} MB)`;
    for (const [kind, pick] of [
      ['one-file', (r: ScenarioResult) => r.oneFile],
      ['ten-file', (r: ScenarioResult) => r.tenFile],
    ] as const) {
      summary[`${name} ${kind} save p50 ms`] = add(
        `${ws}, ${kind} call: snapshot (save) p50`,
        'ms',
        perRep(rs, (r) => pick(r).saveMs, 0.5),
      );
      summary[`${name} ${kind} save p95 ms`] = add(
        `${ws}, ${kind} call: snapshot (save) p95`,
        'ms',
        perRep(rs, (r) => pick(r).saveMs, 0.95),
      );
      summary[`${name} ${kind} put p50 ms`] = add(
        `${ws}, ${kind} call: of which store.put p50`,
        'ms',
        perRep(rs, (r) => pick(r).putMs, 0.5),
      );
      summary[`${name} ${kind} pack p50 ms`] = add(
        `${ws}, ${kind} call: of which git pack-objects (save − put) p50`,
        'ms',
        perRep(rs, (r) => pick(r).saveMs.map((ms, i) => ms - pick(r).putMs[i]!), 0.5),
      );
      summary[`${name} ${kind} commit p50 ms`] = add(
        `${ws}, ${kind} call: commit (git add/diff/commit) p50`,
        'ms',
        perRep(rs, (r) => pick(r).commitMs, 0.5),
      );
      summary[`${name} ${kind} commit p95 ms`] = add(
        `${ws}, ${kind} call: commit (git add/diff/commit) p95`,
        'ms',
        perRep(rs, (r) => pick(r).commitMs, 0.95),
      );
      summary[`${name} ${kind} bytes`] = add(
        `${ws}, ${kind} call: bytes added to the store (median)`,
        'B',
        perRep(rs, (r) => pick(r).bytes, 0.5),
        0,
      );
    }
    summary[`${name} initial save ms`] = add(
      `${ws}: initial full snapshot (save)`,
      'ms',
      rs.map((r) => r.initial.saveMs),
      0,
    );
    summary[`${name} initial commit ms`] = add(
      `${ws}: initial commit of every file`,
      'ms',
      rs.map((r) => r.initial.commitMs),
      0,
    );
    summary[`${name} initial bytes`] = add(
      `${ws}: initial full snapshot, bytes`,
      'B',
      rs.map((r) => r.initial.bytes),
      0,
    );
    const packs = rs[0]!.restore.packs;
    summary[`${name} restore total ms`] = add(
      `${ws}: cold restore of ${packs} packs (init + fetch + reset --hard)`,
      'ms',
      rs.map((r) => r.restore.totalMs),
      0,
    );
    summary[`${name} restore fetch ms`] = add(
      `${ws}: cold restore, restoreCommit (fetch + index-pack)`,
      'ms',
      rs.map((r) => r.restore.fetchMs),
      0,
    );
    summary[`${name} restore checkout ms`] = add(
      `${ws}: cold restore, git reset --hard`,
      'ms',
      rs.map((r) => r.restore.checkoutMs),
      0,
    );
    summary[`${name} restore bytes fetched`] = add(
      `${ws}: cold restore, bytes fetched from the store`,
      'B',
      rs.map((r) => r.restore.bytesFetched),
      0,
    );
  }

  summary['spawn floor p50 ms'] = add(
    'floor: spawn `true` from this process and wait (p50 of 20, each scenario)',
    'ms',
    [...of('small'), ...of('big')].map((r) => quantileOf(r.spawnFloorMs, 0.5)),
  );
  summary['rss bytes'] = add(
    "this process's RSS (fork cost grows with it)",
    'B',
    [...of('small'), ...of('big')].map((r) => r.rssBytes),
    0,
  );

  const smallP50 = summary['small one-file save p50 ms']!.median;
  const bigP50 = summary['big one-file save p50 ms']!.median;
  const bigTenP50 = summary['big ten-file save p50 ms']!.median;
  const figures = snapshotFigures({
    small: { label: workspaceLabel('small'), oneFileSaveP50: perRep(of('small'), (r) => r.oneFile.saveMs, 0.5) },
    big: {
      label: workspaceLabel('big'),
      oneFileSaveP50: perRep(of('big'), (r) => r.oneFile.saveMs, 0.5),
      tenFileSaveP50: perRep(of('big'), (r) => r.tenFile.saveMs, 0.5),
      oneFileCommitP50: perRep(of('big'), (r) => r.oneFile.commitMs, 0.5),
      oneFileBytes: perRep(of('big'), (r) => r.oneFile.bytes, 0.5),
      restoreMs: of('big').map((r) => r.restore.totalMs),
      packs: of('big')[0]!.restore.packs,
    },
    spawnFloorP50: [...of('small'), ...of('big')].map((r) => quantileOf(r.spawnFloorMs, 0.5)),
  });
  // The median of the per-repetition ratios, as the figure judges it.
  const ratio = figures.find((f) => f.key === 'workspace-snapshots.big-vs-small')!.ratio!.value.median;
  const bytesRatio = summary['big one-file bytes']!.median / summary['small one-file bytes']!.median;
  const sizeRatio = of('big')[0]!.workTreeBytes / of('small')[0]!.workTreeBytes;
  const goals = [
    {
      goal: `snapshot p50 < ${GOAL_SMALL_P50_MS} ms for a one-file change in the small workspace`,
      value: round(smallP50),
      met: smallP50 < GOAL_SMALL_P50_MS,
    },
    {
      goal: `the big workspace's snapshot cost grows with the change, not the workspace: its one-file p50 within ${GOAL_SCALE_FACTOR}x the small workspace's, the median of the repetitions' ratios (the workspace is ${Math.round(sizeRatio)}x bigger)`,
      value: round(ratio),
      met: ratio <= GOAL_SCALE_FACTOR,
      detail: {
        bigOneFileP50: round(bigP50),
        smallOneFileP50: round(smallP50),
        bigTenFileP50: round(bigTenP50),
        tenFileOverOneFile: round(bigTenP50 / bigP50),
        oneFileBytesBigOverSmall: round(bytesRatio),
      },
    },
  ];

  const fmtValue = (m: Metric) => {
    const f = (x: number) => (m.unit === 'B' ? (x >= 1e6 ? `${(x / 1e6).toFixed(2)} MB` : `${Math.round(x).toLocaleString('en')} B`) : x.toFixed(m.digits));
    return { median: f(m.value.median), range: `${f(m.value.min)}–${f(m.value.max)}` };
  };
  const lines = [
    `Workspace snapshot cost${quick ? ' (--quick)' : ''}: ${REPETITIONS} repetitions, each ${CALLS.oneFile} one-file calls then a cold restore then ${CALLS.tenFile} ten-file calls per workspace; Postgres ${postgres.version} fsync=${postgres.fsync} synchronous_commit=${postgres.synchronous_commit} shared_buffers=${postgres.shared_buffers}`,
    `load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    '| metric | unit | median | range (min–max over repetitions) |',
    '|---|---|---:|---:|',
    ...metrics.map((m) => {
      const v = fmtValue(m);
      return `| ${m.label} | ${m.unit === 'B' ? 'bytes' : m.unit} | ${v.median} | ${v.range} |`;
    }),
    '',
    ...goals.map((g) => `goal: ${g.goal}: ${g.value}${g.goal.includes('ms for') ? ' ms' : 'x'} — ${g.met ? 'met' : 'MISSED'}`),
    `big workspace: ten-file / one-file snapshot p50 = ${(bigTenP50 / bigP50).toFixed(2)}x; one-file bytes big / small = ${bytesRatio.toFixed(2)}x`,
  ];
  console.log(lines.join('\n'));

  const { commit, workspacesPackageDirty } = gitCommit();
  const date = started.toISOString().slice(0, 10);
  const file = quick
    ? join(tmpdir(), `looplane-bench-${date}-${commit}-workspace-snapshots-quick-${process.pid}.json`)
    : join(root, 'bench', 'results', `${date}-${commit}-workspace-snapshots.json`);
  const report = {
    bench: 'workspace-snapshots',
    quick,
    date: started.toISOString(),
    commit,
    workspacesPackageDirty,
    machine: { ...machine(), loadBefore, loadAfter },
    postgres,
    config: { repetitions: REPETITIONS, calls: CALLS, workspaces: WORKSPACES, goals: { smallOneFileP50Ms: GOAL_SMALL_P50_MS, scaleFactor: GOAL_SCALE_FACTOR } },
    goals,
    summary,
    repetitions: reps.map((r, i) => ({ repetition: i + 1, ...r })),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
  console.log(`\nRaw results: ${file}`);
  const short = (key: string) => round(summary[key]!.median);
  console.log(
    JSON.stringify({
      bench: 'workspace-snapshots',
      figures,
      quick,
      results: file,
      smallOneFileSaveP50Ms: short('small one-file save p50 ms'),
      bigOneFileSaveP50Ms: short('big one-file save p50 ms'),
      bigTenFileSaveP50Ms: short('big ten-file save p50 ms'),
      smallOneFileCommitP50Ms: short('small one-file commit p50 ms'),
      bigOneFileCommitP50Ms: short('big one-file commit p50 ms'),
      bigOneFileBytes: short('big one-file bytes'),
      bigRestoreMs: short('big restore total ms'),
      spawnFloorP50Ms: short('spawn floor p50 ms'),
      goals: goals.map((g) => ({ goal: g.goal, value: g.value, met: g.met })),
    }),
  );
}

await main();
