// Workspace snapshot cost: what durably saving a session's files costs per mutating tool call, with
// the real git and the real Postgres workspace store (`@looplane/workspaces`). For a small (10
// files) and a big (5,000 files / 50 MB) workspace of seeded pseudo-random text in nested
// folders, each repetition: the initial full snapshot, then 50 calls that each rewrite ONE file,
// then a cold restore of the result on an "empty host" (a new git dir and work tree), then 20 calls
// that each rewrite TEN files. Per call it times the commit (`commitWorkTree`, what
// `WorkspaceManager.commit` runs: one shell script of git steps) and,
// separately, the snapshot (`SnapshotWriter.save`: `git pack-objects` relative to the previous
// commit + the store's transaction), and the bytes the call added to the store. The whole scenario
// is repeated 5 times (fresh workspace, fresh run); figures are the median over the repetitions of
// each repetition's p50 / p95, with the min–max range.
// Run: `npx tsx bench/workspaces/snapshot-cost.ts [--quick]` (`--quick`: 500 files / 5 MB, 2
// repetitions, a few calls, JSON to a temp folder). Prints a Markdown table, the goals (met or
// MISSED), one JSON line for bench/run-all.ts, and writes every repetition's raw numbers to
// bench/results/<date>-<commit>-workspace-snapshots.json. See bench/README.md.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { commitWorkTree, git, PostgresWorkspaceStore, SnapshotWriter, type GitOptions } from '@looplane/workspaces';
import { quantile } from '../compare/stats';
import { snapshotFigures, SNAPSHOT_GOALS } from './figures';
import { gitCommit, machine } from './run-info';
import { coldRestore, dirBytes, type Restore } from './cold-restore';
import { pathOf, seededText, seededUnit, sizeOf } from './seeded-workspace';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const REPETITIONS = quick ? 2 : 5;
const CALLS = { oneFile: quick ? 10 : 50, tenFile: quick ? 5 : 20 };
/** Both workspaces use the same file sizes (2–18 KB, mean 10 KB), so a call's change is the same size in both. */
const WORKSPACES = { small: { files: 10, bytes: 100_000 }, big: quick ? { files: 500, bytes: 5_000_000 } : { files: 5_000, bytes: 50_000_000 } };
type WorkspaceName = keyof typeof WORKSPACES;
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

// ---------- one scenario ----------

/** The Postgres store, timing each `put` (the durable part of a save; the rest is `git pack-objects`). */
class TimedPostgresStore extends PostgresWorkspaceStore {
  lastPutMs = 0;

  override async put(...args: Parameters<PostgresWorkspaceStore['put']>): Promise<void> {
    const started = performance.now();
    await super.put(...args);
    this.lastPutMs = performance.now() - started;
  }
}

interface CallSeries {
  /** ms of the commit's git steps, per call. */
  commitMs: number[];
  /** ms of `SnapshotWriter.save` (pack + durable put), per call. */
  saveMs: number[];
  /** The part of `saveMs` in `store.put` (one transaction: index row + chunk rows, committed with fsync). */
  putMs: number[];
  /** Bytes each call added to the store (the pack's size). */
  bytes: number[];
}

interface ScenarioResult {
  workspace: WorkspaceName;
  files: number;
  workTreeBytes: number;
  initial: { writeMs: number; commitMs: number; saveMs: number; bytes: number };
  oneFile: CallSeries;
  tenFile: CallSeries;
  restore: Restore;
  /** The floor under every git step: ms to spawn `true` and wait for it from this process (20 times, before the calls). */
  spawnFloorMs: number[];
  /** This process's resident memory then (a fork's cost grows with it). */
  rssBytes: number;
  /** What the run's packs take in Postgres: `pg_column_size` of its chunk rows, against the sum of pack bytes. */
  stored: { packs: number; packBytes: number; chunkColumnBytes: number };
}

/** `WorkspaceManager.commit`'s commit (one shell script of git steps): the new commit and its base (null: nothing changed). */
async function commitAll(options: GitOptions & { workTree: string }, message: string): Promise<{ commit: string; base: string } | null> {
  const { base, commit } = await commitWorkTree(options, message);
  return commit ? { commit, base } : null;
}

interface Env {
  database: TestDatabase;
  pool: PgPool;
  agent: TestAgent;
}

async function scenario(env: Env, name: WorkspaceName, rep: number, calls = CALLS): Promise<ScenarioResult> {
  const spec = WORKSPACES[name];
  const dir = await mkdtemp(join(tmpdir(), `looplane-bench-ws-${name}-`));
  try {
    const options: GitOptions & { workTree: string } = { gitDir: join(dir, 'git'), workTree: join(dir, 'work') };
    await mkdir(options.workTree!, { recursive: true });
    // As WorkspaceManager.create: an empty repository with one empty commit.
    await git(['init', '-q', '-b', 'main'], options);
    await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'workspace created'], options);
    const { runId, sessionId } = await createTestRun(env.database.db, env.agent);
    const store = new TimedPostgresStore(env.pool);
    const writer = new SnapshotWriter(store);
    const created = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
    await writer.save({ gitDir: options.gitDir, runId, sessionId, commit: created, base: null });

    const sizes = Array.from({ length: spec.files }, (_, i) => sizeOf(spec, i));
    let started = performance.now();
    for (let i = 0; i < spec.files; i++) {
      const target = join(options.workTree!, pathOf(i));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, seededText(`${rep}/${name}/file/${i}`, sizes[i]!));
    }
    const writeMs = performance.now() - started;
    started = performance.now();
    const first = await commitAll(options, 'initial files');
    const initialCommitMs = performance.now() - started;
    if (!first) throw new Error('the initial files made no commit');
    started = performance.now();
    const initialBytes = await writer.save({ gitDir: options.gitDir, runId, sessionId, ...first });
    const initial = { writeMs, commitMs: initialCommitMs, saveMs: performance.now() - started, bytes: initialBytes };

    const spawnFloorMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await new Promise<void>((resolve, reject) =>
        execFile('true', [], { cwd: '/', env: { PATH: '/usr/bin:/bin' } }, (error) => (error ? reject(error) : resolve())),
      );
      spawnFloorMs.push(performance.now() - t);
    }
    const rssBytes = process.memoryUsage.rss();

    let callNo = 0;
    const series = async (count: number, filesPerCall: number): Promise<CallSeries> => {
      const out: CallSeries = { commitMs: [], saveMs: [], putMs: [], bytes: [] };
      for (let c = 0; c < count; c++, callNo++) {
        // The tool's own work (not timed): rewrite `filesPerCall` distinct files with new content of their size.
        const picked = new Set<number>();
        for (let k = 0; picked.size < Math.min(filesPerCall, spec.files); k++)
          picked.add(Math.floor(seededUnit(`${rep}/${name}/pick/${callNo}/${k}`) * spec.files));
        for (const i of picked) await writeFile(join(options.workTree!, pathOf(i)), seededText(`${rep}/${name}/call/${callNo}/${i}`, sizes[i]!));
        let t = performance.now();
        const made = await commitAll(options, `tool call ${callNo}`);
        out.commitMs.push(performance.now() - t);
        if (!made) throw new Error(`call ${callNo} changed nothing`);
        t = performance.now();
        out.bytes.push(await writer.save({ gitDir: options.gitDir, runId, sessionId, ...made }));
        out.saveMs.push(performance.now() - t);
        out.putMs.push(store.lastPutMs);
      }
      return out;
    };

    const oneFile = await series(calls.oneFile, 1);
    const head = (await git(['rev-parse', 'HEAD'], options)).stdout.trim();
    const restore = await coldRestore(env.database.url, runId, head, options);
    const tenFile = await series(calls.tenFile, 10);

    const storedRows = await env.pool.query({
      text: `SELECT (SELECT count(*)::int FROM "WorkspacePack" WHERE "runId" = $1) AS packs, (SELECT coalesce(sum("bytes"), 0)::bigint FROM "WorkspacePack" WHERE "runId" = $1) AS "packBytes", (SELECT coalesce(sum(pg_column_size("data")), 0)::bigint FROM "WorkspacePackChunk" WHERE "runId" = $1) AS "chunkColumnBytes"`,
      values: [runId],
    });
    const row = storedRows.rows[0] as { packs: number; packBytes: string; chunkColumnBytes: string };
    const tree = await dirBytes(options.workTree!);
    return {
      workspace: name,
      files: tree.files,
      workTreeBytes: tree.bytes,
      initial,
      oneFile,
      tenFile,
      restore,
      spawnFloorMs,
      rssBytes,
      stored: { packs: row.packs, packBytes: Number(row.packBytes), chunkColumnBytes: Number(row.chunkColumnBytes) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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
