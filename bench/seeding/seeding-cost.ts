// Seeding cost: what starting a run from a repository costs before its first model call, side by
// side with a plain `git clone --depth 1` of the same repository over the same server with the
// same token, in the same repetition (bench/README.md, section 8). A 5,000-file, ~50 MB repository
// (`--quick`: 500 files, ~5 MB), one commit, served by `git http-backend` behind Basic auth. Per
// repetition, interleaved (the clone first in even repetitions, the run first in odd ones): (a)
// the plain clone; (b) a real run (runs.create through the API, the worker with bwrap and the
// Postgres workspace store, a faux agent whose first turn is a model call), runs.create → the
// model called; (c) a fork of that run's session at run.started → the fork's first tool call done,
// with the git server's request log showing no second clone; then (d) the seed's steps replayed
// one by one (profile.ts), where the time goes. One warm-up repetition first, discarded.
// Writes `bench/results/<date>-<commit>-seeding-cost.json` (a temp file with --quick) and prints
// one JSON line with the figures in the results format.
// Run: `npm run bench:seeding -w @looplane/bench [-- --quick] [-- --repetitions N]`.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, stat, type Stat } from '../compare/stats';
import { describeMachine } from '../report/machine';
import { PEER_LABEL, SEEDING_GOAL_RATIO, seedingFigures } from './figures';
import { createAgent, forkSeeded, looplaneRun, plainClone, type CloneResult, type ForkResult, type RunResult } from './measure';
import { profileSeed, type SeedProfile } from './profile';
import { REPOSITORY_SIZES } from './repository';
import { run } from './run-command';
import { startSeedingStack, type SeedingStack } from './stack';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const REPETITIONS = Number(option('repetitions') ?? (quick ? 2 : 5));
const FILES = (quick ? REPOSITORY_SIZES.quick : REPOSITORY_SIZES.full).files;
/** The code whose changes move these figures: a dirty tree there is recorded with the results. */
const MEASURED_CODE = ['bench/seeding', 'apps/worker/src', 'packages/sandbox', 'packages/workspaces', 'packages/api/src', 'packages/db/src'];

interface Repetition {
  repetition: number;
  order: 'clone first' | 'run first';
  clone: CloneResult;
  run: RunResult;
  fork: ForkResult;
  profile: SeedProfile;
}

async function repetition(stack: SeedingStack, index: number): Promise<Repetition> {
  const agent = await createAgent(stack);
  const cloneFirst = index % 2 === 0;
  let clone = cloneFirst ? await plainClone(stack) : null;
  const looplane = await looplaneRun(stack, agent);
  clone ??= await plainClone(stack);
  const fork = await forkSeeded(stack, looplane);
  const profile = await profileSeed(stack, await mkdtemp(join(tmpdir(), 'looplane-bench-seed-profile-')));
  return { repetition: index + 1, order: cloneFirst ? 'clone first' : 'run first', clone, run: looplane, fork, profile };
}

async function commitInfo() {
  const git = (args: string[]) => run('git', ['-C', root, ...args]).then((out) => out.trim());
  const dirtyPaths = (await git(['status', '--porcelain', '--', ...MEASURED_CODE])).split('\n').filter((line) => line !== '');
  return { sha: await git(['rev-parse', 'HEAD']), short: await git(['rev-parse', '--short', 'HEAD']), measuredCodeDirty: dirtyPaths.map((l) => l.slice(3)) };
}

const fmt = (s: Stat, digits = 0) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

async function main() {
  const started = new Date();
  const loadBefore = loadavg();
  const machine = await describeMachine();
  const gitVersion = (await run('git', ['--version'])).trim();
  const commit = await commitInfo();
  const stack = await startSeedingStack(FILES);
  const reps: Repetition[] = [];
  let packKiB = 0;
  try {
    const countObjects = await run('git', ['--git-dir', stack.repository.path, 'count-objects', '-v']);
    packKiB = Number(/^size-pack: (\d+)$/m.exec(countObjects)?.[1] ?? 0);
    process.stderr.write(
      `repository: ${stack.repository.files} files, ${(stack.repository.bytes / 1e6).toFixed(1)} MB, pack ${(packKiB / 1024).toFixed(1)} MiB; warm-up…\n`,
    );
    await repetition(stack, -1);
    for (let i = 0; i < REPETITIONS; i++) {
      const r = await repetition(stack, i);
      reps.push(r);
      process.stderr.write(
        `repetition ${i + 1}/${REPETITIONS} (${r.order}): clone ${r.clone.ms.toFixed(0)} ms, run → first model call ${r.run.ms.toFixed(0)} ms (${(r.run.ms / r.clone.ms).toFixed(2)}×), fork → first tool call ${r.fork.ms.toFixed(0)} ms, ${r.fork.requests} git requests\n`,
      );
    }
  } finally {
    await stack.close();
  }
  const loadAfter = loadavg();

  const repository = `repository of ${stack.repository.files.toLocaleString('en')} files, ${(stack.repository.bytes / 1e6).toFixed(1)} MB`;
  const figures = seedingFigures({
    repository,
    cloneMs: reps.map((r) => r.clone.ms),
    firstModelCallMs: reps.map((r) => r.run.ms),
    forkMs: reps.map((r) => r.fork.ms),
    forkRequests: reps.map((r) => r.fork.requests),
  });
  const series = (pick: (r: Repetition) => number, digits = 1) => stat(reps.map(pick), digits);
  const summary = {
    cloneMs: series((r) => r.clone.ms),
    firstModelCallMs: series((r) => r.run.ms),
    ratio: series((r) => r.run.ms / r.clone.ms, 3),
    run: {
      createMs: series((r) => r.run.createMs),
      seededAtMs: series((r) => r.run.seededAtMs),
      startedAtMs: series((r) => r.run.startedAtMs),
      modelRequestedAtMs: series((r) => r.run.modelRequestedAtMs),
      putMs: series((r) => r.run.putMs),
      packBytes: series((r) => r.run.packBytes, 0),
      gitRequests: series((r) => r.run.requests, 0),
    },
    clone: { gitRequests: series((r) => r.clone.requests, 0) },
    forkMs: series((r) => r.fork.ms),
    forkToolMs: series((r) => r.fork.toolMs),
    forkGitRequests: reps.reduce((n, r) => n + r.fork.requests, 0),
    profile: Object.fromEntries(
      (['fetchMs', 'statsMs', 'initMs', 'commitMs', 'chownMs', 'saveMs', 'putMs', 'packBytes'] as const).map((k) => [k, series((r) => r.profile[k], 0)]),
    ),
  };
  const ratioMet = summary.ratio.median <= SEEDING_GOAL_RATIO;
  const goals = [
    {
      goal: `runs.create → first model call within ${SEEDING_GOAL_RATIO}× a plain clone (median of the per-repetition ratios)`,
      value: summary.ratio.median,
      met: ratioMet,
    },
    { goal: 'a fork of the seeded session clones nothing (no git server request)', value: summary.forkGitRequests, met: summary.forkGitRequests === 0 },
  ];

  const p = summary.profile;
  const lines = [
    `Seeding cost${quick ? ' (--quick)' : ''}: ${repository} (pack ${(packKiB / 1024).toFixed(1)} MiB), ${REPETITIONS} repetitions, ms median (min–max)`,
    `load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}; ${gitVersion}`,
    '',
    `(a) ${PEER_LABEL}: ${fmt(summary.cloneMs)} ms, ${summary.clone.gitRequests.median} requests`,
    `(b) Looplane, runs.create → first model call: ${fmt(summary.firstModelCallMs)} ms = ${fmt(summary.ratio, 2)}× the clone — goal ≤ ${SEEDING_GOAL_RATIO}×: ${ratioMet ? 'met' : 'MISSED'}`,
    `    runs.create returned ${fmt(summary.run.createMs)}, workspace.seeded at ${fmt(summary.run.seededAtMs)}, run.started at ${fmt(summary.run.startedAtMs)}, model.requested at ${fmt(summary.run.modelRequestedAtMs)}; the seed's store put ${fmt(summary.run.putMs)} ms for ${(summary.run.packBytes.median / 1e6).toFixed(1)} MB; ${summary.run.gitRequests.median} git requests`,
    `(c) fork at run.started → first tool call done: ${fmt(summary.forkMs)} ms (the call itself ${fmt(summary.forkToolMs)} ms); git requests meanwhile: ${summary.forkGitRequests} — ${summary.forkGitRequests === 0 ? 'no second clone' : 'FETCHED AGAIN'}`,
    `(d) the seed's steps replayed: fetch ${fmt(p.fetchMs!)}, tree stats ${fmt(p.statsMs!)}, workspace init ${fmt(p.initMs!)}, commit ${fmt(p.commitMs!)}, chown ${fmt(p.chownMs!)}, snapshot save ${fmt(p.saveMs!)} (of which the store's put ${fmt(p.putMs!)})`,
  ];
  console.log(lines.join('\n'));

  const date = started.toISOString().slice(0, 10);
  const file = quick
    ? join(tmpdir(), `looplane-bench-${date}-${commit.short}-seeding-cost-quick-${process.pid}.json`)
    : join(root, 'bench', 'results', `${date}-${commit.short}-seeding-cost.json`);
  const report = {
    bench: 'seeding-cost',
    quick,
    date: started.toISOString(),
    commit,
    machine: {
      ...machine,
      loadAverage: { start: loadBefore.map((l) => Number(l.toFixed(2))), end: loadAfter.map((l) => Number(l.toFixed(2))) },
      git: gitVersion,
    },
    repository: { files: stack.repository.files, bytes: stack.repository.bytes, packBytes: packKiB * 1024, headCommit: stack.repository.headCommit },
    config: { repetitions: REPETITIONS, warmup: 1, goalRatio: SEEDING_GOAL_RATIO, peer: PEER_LABEL },
    goals,
    figures,
    summary,
    repetitions: reps,
  };
  await writeFile(file, `${JSON.stringify(report, null, 1)}\n`);
  console.log(`\nRaw results: ${file}`);
  console.log(JSON.stringify({ bench: 'seeding-cost', quick, results: file, figures, goals }));
}

await main();
