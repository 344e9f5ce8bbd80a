// Sandboxed command start latency: start-to-exit of `true` and `echo hi` through plain spawn (the
// floor), the bwrap CLI alone, the BwrapDriver (cgroups, launcher, limits, cleanup included), the
// GvisorDriver (rootless runsc), and the podman driver (runc; crun and runsc for `true`) when it works here. Every start is cold: a new sandbox per call, nothing
// pre-started (there is no warm path; see the README). The rounds are repeated --repeat times (5;
// 1 at --quick) and every figure is the median of the repetitions' p50s with min–max. Run as root
// for the real setup (a per-session uid, cgroups):
// `npx tsx bench/sandbox/start-latency.ts [--quick] [--repeat N] [--rounds N] [--podman-rounds N]`.
// Prints a Markdown table, the ratios and goals, and one JSON line in the results format
// (bench/report/schema.ts) for bench/run-all.ts. See bench/sandbox/README.md.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BwrapDriver, GvisorDriver, MicrovmDriver, PodmanDriver, WorkspaceManager, type SandboxDriver, type Workspace } from '@looplane/sandbox';
import { option } from '../compare/stats';
import { findRow, medianRows, sandboxFigures, type Row } from './figures';

const quick = process.argv.includes('--quick');
/** Rounds per repetition: 100 of each fast variant and 30 of podman (5 and 30 at --quick), 3 warm-up calls each before every repetition. */
const ROUNDS = { fast: Number(option('rounds') ?? (quick ? 30 : 100)), podman: Number(option('podman-rounds') ?? (quick ? 5 : 30)), warmup: 3 };
const REPEAT = Number(option('repeat') ?? (quick ? 1 : 5));
const COMMANDS: Record<string, string[]> = { true: ['true'], 'echo hi': ['echo', 'hi'] };

/** Resolves after the process exited and its pipes closed, like a tool call waits. */
function run(command: string, args: string[], options: { uid?: number; gid?: number } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin:/usr/sbin' }, cwd: '/', ...options });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? -1));
  });
}

interface Variant {
  variant: string;
  /** 'cold': a new sandbox per call, set up on the call's own critical path; 'warm': the session's booted microVM guest. */
  start: 'cold' | 'warm';
  command: string;
  rounds: number;
  fn: () => Promise<unknown>;
}

/**
 * CPU time of this process and of every waited-for descendant (utime, stime, cutime, cstime from
 * /proc/self/stat, in ms at the usual 100 Hz clock tick). On a busy host wall time mostly measures
 * the queue for a core; the CPU a start needs is what it would take on an idle one.
 */
function cpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, so utime..cstime (fields 14-17) are indexes 11-14.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

/**
 * Runs the variants round-robin, one call each per round, so load from other processes on the
 * host (CI neighbours) spreads over all of them instead of skewing whichever ran during it.
 */
async function measure(variants: Variant[]): Promise<Row[]> {
  for (const v of variants) for (let i = 0; i < ROUNDS.warmup; i++) await v.fn();
  const times = variants.map(() => [] as number[]);
  const cpu = variants.map(() => 0);
  const most = Math.max(...variants.map((v) => v.rounds));
  for (let round = 0; round < most; round++) {
    for (const [i, v] of variants.entries()) {
      if (round >= v.rounds) continue;
      const start = performance.now();
      const cpuStart = cpuMs();
      await v.fn();
      cpu[i] = (cpu[i] ?? 0) + cpuMs() - cpuStart;
      times[i]?.push(performance.now() - start);
    }
  }
  return variants.map((v, i) => {
    const sorted = (times[i] ?? []).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
    return { variant: v.variant, start: v.start, command: v.command, p50: at(0.5), p95: at(0.95), cpu: (cpu[i] ?? 0) / sorted.length, n: sorted.length };
  });
}

/** The flags of STACK.md's measurement: bwrap alone, no launcher, no cgroup, no status channel. */
function rawBwrapArgs(workspace: string, argv: string[]): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    workspace,
    '/workspace',
    '--chdir',
    '/workspace',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--',
    ...argv,
  ];
}

async function main() {
  const load = loadavg();
  const dir = await mkdtemp(join(tmpdir(), 'looplane-bench-'));
  await chmod(dir, 0o711);
  const variants: Variant[] = [];
  const repetitions: Row[][] = [];
  try {
    const workspaces = new WorkspaceManager({ root: join(dir, 'ws') });
    const ws: Workspace = await workspaces.create('bench');
    const asUid = process.getuid?.() === 0 ? { uid: ws.uid, gid: ws.gid } : {};
    const bwrap = new BwrapDriver({ stateDir: join(dir, 'state') });
    const bwrapNoCgroups = new BwrapDriver({ stateDir: join(dir, 'state-nocg'), cgroups: 'off' });
    const bwrapProbe = await bwrap.probe();
    const exec = (driver: SandboxDriver, workspace: Workspace, argv: string[]) => async () => {
      const r = await driver.exec({ argv, workspace });
      if (r.exitCode !== 0) throw new Error(`${driver.name}: exit ${r.exitCode} ${r.stderr}`);
    };
    for (const [command, argv] of Object.entries(COMMANDS)) {
      variants.push(
        { variant: 'plain spawn (floor)', command, start: 'cold', rounds: ROUNDS.fast, fn: () => run(argv[0] as string, argv.slice(1), asUid) },
        { variant: 'bwrap CLI alone', command, start: 'cold', rounds: ROUNDS.fast, fn: () => run('bwrap', rawBwrapArgs(ws.path, argv), asUid) },
        {
          variant: `BwrapDriver (${bwrapProbe.limitsEnforced.memoryBytes.by ?? 'no'} limits)`,
          command,
          start: 'cold',
          rounds: ROUNDS.fast,
          fn: exec(bwrap, ws, argv),
        },
        { variant: 'BwrapDriver (cgroups off)', command, start: 'cold', rounds: ROUNDS.fast, fn: exec(bwrapNoCgroups, ws, argv) },
      );
    }
    const gvisor = new GvisorDriver({ stateDir: join(dir, 'state-gvisor') });
    const gvisorProbe = await gvisor.probe();
    if (!gvisorProbe.available) process.stdout.write(`gvisor skipped: ${gvisorProbe.reason}\n`);
    else
      for (const [command, argv] of Object.entries(COMMANDS))
        variants.push({ variant: 'GvisorDriver (rootless runsc, systrap)', command, start: 'cold', rounds: ROUNDS.podman, fn: exec(gvisor, ws, argv) });
    // The microVM: its guest boots in the warm-up calls (seconds under TCG); the rounds are calls in the booted guest.
    const microvm = new MicrovmDriver({ stateDir: join(dir, 'state-microvm') });
    const microvmProbe = await microvm.probe();
    if (!microvmProbe.available) process.stdout.write(`microvm skipped: ${microvmProbe.reason}\n`);
    else {
      const accel = microvmProbe.reason?.includes('KVM') && !microvmProbe.reason.includes('TCG') ? 'KVM' : 'TCG';
      for (const [command, argv] of Object.entries(COMMANDS))
        variants.push({ variant: `MicrovmDriver (warm guest, ${accel})`, command, start: 'warm', rounds: ROUNDS.podman, fn: exec(microvm, ws, argv) });
    }
    const podman = new PodmanDriver({ stateDir: join(dir, 'state'), unenforcedLimits: 'report' });
    const podmanProbe = await podman.probe();
    if (!podmanProbe.available) {
      process.stdout.write(`podman skipped: ${podmanProbe.reason}\n`);
    } else {
      const owner =
        process.getuid?.() === 0
          ? execFileSync('sh', ['-c', 'id -u looplane-podman; id -g looplane-podman']).toString().trim().split('\n').map(Number)
          : [process.getuid?.() ?? 0, process.getgid?.() ?? 0];
      const podmanWs = await new WorkspaceManager({
        root: join(dir, 'pws'),
        owners: { kind: 'fixed', uid: owner[0] as number, gid: owner[1] as number },
      }).create('bench');
      for (const [command, argv] of Object.entries(COMMANDS)) {
        variants.push({ variant: 'PodmanDriver (rootless, runc)', command, start: 'cold', rounds: ROUNDS.podman, fn: exec(podman, podmanWs, argv) });
      }
      // podman's other runtimes, `true` only: crun, and gVisor's runsc under podman.
      for (const runtime of ['crun', 'runsc'] as const) {
        const other = new PodmanDriver({ stateDir: join(dir, `state-${runtime}`), unenforcedLimits: 'report', runtime });
        const probe = await other.probe();
        if (!probe.available) process.stdout.write(`podman with ${runtime} skipped: ${probe.reason}\n`);
        else
          variants.push({
            variant: `PodmanDriver (rootless, ${runtime})`,
            command: 'true',
            start: 'cold',
            rounds: ROUNDS.podman,
            fn: exec(other, podmanWs, ['true']),
          });
      }
    }
    for (let i = 0; i < REPEAT; i++) {
      repetitions.push(await measure(variants));
      if (REPEAT > 1) process.stdout.write(`repetition ${i + 1}/${REPEAT} done\n`);
    }
    await bwrap.close(); // its spare cgroups
    await gvisor.close();
    await microvm.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const after = loadavg();
  const rows = medianRows(repetitions);
  const lines = [
    `load average (1/5/15 min) before: ${load.map((l) => l.toFixed(2)).join(' ')}, after: ${after.map((l) => l.toFixed(2)).join(' ')}; ${leakyFdsNote()}`,
    `${REPEAT} repetition(s) of ${ROUNDS.fast} rounds (podman ${ROUNDS.podman}); p50, p95 and CPU are the medians of the repetitions', n the starts in all`,
    '',
    '| variant | start | command | p50 ms | p95 ms | p50 / floor | CPU ms/start (mean) | n |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const floor = findRow(rows, 'plain', r.command);
    lines.push(
      `| ${r.variant} | ${r.start} | ${r.command} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${floor ? `${(r.p50 / floor.p50).toFixed(1)}x` : '-'} | ${r.cpu.toFixed(1)} | ${r.n} |`,
    );
  }
  const figures = sandboxFigures(repetitions, Object.keys(COMMANDS));
  lines.push('');
  for (const f of figures) {
    const range = (s: { median: number; min: number; max: number }, digits = 1) =>
      `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
    const versus = f.peer && f.ratio ? `; ${f.peer.label} ${range(f.peer.value)} ms, ratio ${range(f.ratio.value, 3)}` : '';
    const goals = f.goals.map((g) => `${g.text}: ${g.met ? 'met' : 'MISSED'}`).join('; ');
    lines.push(`${f.label}: ${range(f.looplane)} ${f.unit}${versus}${goals ? ` — ${goals}` : ''}`);
  }
  lines.push("warm start: only the microVM keeps a session's guest booted between calls; every other driver sets up its own sandbox per call");
  const json = {
    bench: 'sandbox-start',
    figures,
    quick,
    repeat: REPEAT,
    rounds: ROUNDS,
    loadBefore: load,
    loadAfter: after,
    rows: rows.map(roundRow),
    repetitions: repetitions.map((reps) => reps.map(roundRow)),
    warm: null,
  };
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(json)}\n`);
}

const roundRow = (r: Row): Row => ({ ...r, p50: round(r.p50), p95: round(r.p95), cpu: round(r.cpu) });

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The launcher is dash unless a descriptor above 9 was inherited without close-on-exec (dash
 * cannot close those, so bash is used, which starts slower): say which this run measured.
 */
function leakyFdsNote(): string {
  const leaky = readdirSync('/proc/self/fdinfo')
    .map(Number)
    .filter((fd) => fd > 9)
    .filter((fd) => {
      let info = '';
      try {
        info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      } catch {
        // Closed meanwhile: not inherited.
      }
      const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
      return flags !== undefined && (Number.parseInt(flags, 8) & 0o2000000) === 0;
    });
  return leaky.length ? `launcher: bash (inherited fds ${leaky.join(', ')})` : 'launcher: dash';
}

await main();
