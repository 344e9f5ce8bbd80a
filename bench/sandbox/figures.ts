// The sandbox start figures in the results format (bench/report/schema.ts): each the median over
// the repetitions of that repetition's p50 (or p95), with min–max; podman, when it ran, is the peer
// measured in the same rounds, and "Looplane vs peer" is the driver ÷ podman per repetition. Goals
// (bench/sandbox/README.md): the BwrapDriver's cold start p50 ≤ 15 ms, and podman ≥ 10× slower.
import { stat, type Stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';

/** One variant's starts in one repetition. */
export interface Row {
  variant: string;
  /** 'cold': a new sandbox per call; 'warm': a call in the session's already booted microVM guest. */
  start: 'cold' | 'warm';
  command: string;
  p50: number;
  p95: number;
  /** CPU ms per start (mean), this process and its waited-for descendants. */
  cpu: number;
  n: number;
}

const SANDBOX_GOALS = { driverP50Ms: 15, timesFasterThanPodman: 10, gvisorP50Ms: 150, microvmWarmP50Ms: 50 };

const TIME = { below: 'faster', above: 'slower' };

/** Finds a variant's row among one repetition's (the driver with cgroups: prefix 'BwrapDriver (', excluding 'off'). */
export function findRow(rows: readonly Row[], prefix: string, command: string, exclude?: string): Row | undefined {
  return rows.find((r) => r.variant.startsWith(prefix) && r.command === command && !(exclude && r.variant.includes(exclude)));
}

/** Every variant's median row over the repetitions: p50, p95 and CPU the medians of the repetitions', n their sum. */
export function medianRows(repetitions: readonly Row[][]): Row[] {
  return (repetitions[0] ?? []).map((first, i) => {
    const same = repetitions.map((rows) => rows[i]!);
    const median = (pick: (r: Row) => number) => stat(same.map(pick), 2).median;
    return { ...first, p50: median((r) => r.p50), p95: median((r) => r.p95), cpu: median((r) => r.cpu), n: same.reduce((n, r) => n + r.n, 0) };
  });
}

export function sandboxFigures(repetitions: readonly Row[][], commands: readonly string[]): Figure[] {
  const over = (prefix: string, command: string, pick: (r: Row) => number, exclude?: string): number[] | undefined => {
    const values = repetitions.map((rows) => findRow(rows, prefix, command, exclude)).map((r) => (r ? pick(r) : undefined));
    return values.every((v) => v !== undefined) ? (values as number[]) : undefined;
  };
  const ratio = (a: number[], b: number[]): Stat => stat(a.map((x, i) => x / b[i]!));
  const figures: FigureInput[] = [];
  for (const command of commands) {
    const slug = command.replace(/\s+/g, '-');
    const driver = over('BwrapDriver (', command, (r) => r.p50, 'off');
    if (!driver) continue;
    const podman = over('Podman', command, (r) => r.p50);
    const driverStat = stat(driver);
    const goals = [{ text: `p50 ≤ ${SANDBOX_GOALS.driverP50Ms} ms`, met: driverStat.median <= SANDBOX_GOALS.driverP50Ms }];
    let peer: FigureInput['peer'];
    let versus: FigureInput['ratio'];
    if (podman) {
      const vs = ratio(driver, podman);
      peer = { label: 'PodmanDriver (rootless podman, runc)', value: stat(podman) };
      versus = { value: vs, ...TIME };
      goals.push({ text: `≥ ${SANDBOX_GOALS.timesFasterThanPodman}× faster than podman`, met: vs.median <= 1 / SANDBOX_GOALS.timesFasterThanPodman });
    }
    figures.push({
      key: `sandbox-start.driver-p50.${slug}`,
      label: `BwrapDriver cold start to exit of \`${command}\`, p50 (cgroup limits, launcher, seccomp, status channel, checks)${podman ? '' : '; podman not measured here'}`,
      unit: 'ms',
      looplane: driverStat,
      ...(peer ? { peer } : {}),
      ...(versus ? { ratio: versus } : {}),
      goals,
    });
  }
  // The rest for `true` only: the floor under the driver, its tail, and the bare bwrap CLI.
  const driver = over('BwrapDriver (', 'true', (r) => r.p50, 'off');
  const floor = over('plain', 'true', (r) => r.p50);
  if (driver && floor) {
    figures.push({
      key: 'sandbox-start.driver-vs-floor',
      label: 'BwrapDriver vs the floor: a plain spawn of `true`, same rounds',
      unit: 'ms',
      looplane: stat(driver),
      peer: { label: 'floor: plain spawn (no sandbox)', value: stat(floor) },
      ratio: { value: ratio(driver, floor), below: 'below the floor', above: 'the floor' },
    });
  }
  const p95 = over('BwrapDriver (', 'true', (r) => r.p95, 'off');
  if (p95) figures.push({ key: 'sandbox-start.driver-p95', label: 'BwrapDriver cold start of `true`, p95', unit: 'ms', looplane: stat(p95) });
  const cli = over('bwrap CLI', 'true', (r) => r.p50);
  if (cli)
    figures.push({
      key: 'sandbox-start.bwrap-cli-p50',
      label: 'the bwrap CLI alone (no launcher, cgroup or status channel), `true`, p50',
      unit: 'ms',
      looplane: stat(cli),
    });
  // gVisor: each command's p50 and p95 against the floor measured in the same rounds.
  for (const command of commands) {
    const slug = command.replace(/\s+/g, '-');
    const gvisor = over('GvisorDriver', command, (r) => r.p50);
    const gvisorP95 = over('GvisorDriver', command, (r) => r.p95);
    const base = over('plain', command, (r) => r.p50);
    if (!gvisor || !gvisorP95) continue;
    const value = stat(gvisor);
    figures.push({
      key: `sandbox-start.gvisor-p50.${slug}`,
      label: `GvisorDriver cold start to exit of \`${command}\`, p50 (rootless runsc, systrap, cgroup limits, launcher, one OCI bundle)`,
      unit: 'ms',
      looplane: value,
      ...(base
        ? {
            peer: { label: 'floor: plain spawn (no sandbox)', value: stat(base) },
            ratio: { value: ratio(gvisor, base), below: 'below the floor', above: 'the floor' },
          }
        : {}),
      goals: [{ text: `p50 ≤ ${SANDBOX_GOALS.gvisorP50Ms} ms`, met: value.median <= SANDBOX_GOALS.gvisorP50Ms }],
    });
    figures.push({ key: `sandbox-start.gvisor-p95.${slug}`, label: `GvisorDriver cold start of \`${command}\`, p95`, unit: 'ms', looplane: stat(gvisorP95) });
  }
  for (const runtime of ['crun', 'runsc']) {
    const podman = over(`PodmanDriver (rootless, ${runtime})`, 'true', (r) => r.p50);
    if (podman)
      figures.push({
        key: `sandbox-start.podman-${runtime}-p50`,
        label: `PodmanDriver with the ${runtime} runtime, \`true\`, p50`,
        unit: 'ms',
        looplane: stat(podman),
      });
  }
  // The microVM: a call in the session's warm guest. Judged against its goal only under KVM; TCG (an emulated CPU) is reported.
  for (const command of commands) {
    const slug = command.replace(/\s+/g, '-');
    const row = repetitions[0] && findRow(repetitions[0], 'MicrovmDriver', command);
    const microvm = over('MicrovmDriver', command, (r) => r.p50);
    const microvmP95 = over('MicrovmDriver', command, (r) => r.p95);
    if (!row || !microvm || !microvmP95) continue;
    const kvm = row.variant.includes('KVM');
    const value = stat(microvm);
    figures.push({
      key: `sandbox-start.microvm-warm-p50.${slug}`,
      label: `MicrovmDriver call in a warm guest to exit of \`${command}\`, p50 (${kvm ? 'KVM' : 'TCG, an emulated CPU: reported, not judged'})`,
      unit: 'ms',
      looplane: value,
      ...(kvm ? { goals: [{ text: `p50 ≤ ${SANDBOX_GOALS.microvmWarmP50Ms} ms`, met: value.median <= SANDBOX_GOALS.microvmWarmP50Ms }] } : {}),
    });
    figures.push({
      key: `sandbox-start.microvm-warm-p95.${slug}`,
      label: `MicrovmDriver warm call of \`${command}\`, p95`,
      unit: 'ms',
      looplane: stat(microvmP95),
    });
  }
  const off = over('BwrapDriver (cgroups off)', 'true', (r) => r.p50);
  if (off)
    figures.push({ key: 'sandbox-start.driver-cgroups-off-p50', label: "BwrapDriver with `cgroups: 'off'`, `true`, p50", unit: 'ms', looplane: stat(off) });
  return FigureSchema.array().parse(figures);
}
