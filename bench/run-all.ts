// Runs every benchmark, one after the other, each in its own process (so none shares memory or an
// event loop with the next), at the sizes the README reports; `--quick` runs each at a small size
// instead (the test suite does, so no benchmark rots) and asserts no timing. Prints each
// benchmark's own output, then writes what they reported (their JSON lines) and a Markdown summary
// to `--out` (a temp folder by default), and exits 1 if any benchmark failed.
// Run: `npm run bench [-- --quick] [-- --only step-overhead,density] [-- --out DIR]`.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const full = !process.argv.includes('--quick');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('only')?.split(',');
const out = arg('out') ?? join(tmpdir(), `looplane-bench-${new Date().toISOString().replace(/[:.]/g, '-')}`);
const quick = full ? [] : ['--quick'];

const BENCHES: Array<{ name: string; script: string; args: string[] }> = [
  { name: 'step-overhead', script: 'bench/compare/step-overhead.ts', args: quick },
  { name: 'density', script: 'bench/compare/density.ts', args: full ? [] : ['--sizes', '100', '--warmup', '10'] },
  { name: 'sse-latency', script: 'bench/sse/sse-latency.ts', args: quick },
  { name: 'api-throughput', script: 'bench/sse/create-throughput.ts', args: quick },
  { name: 'sandbox-start', script: 'bench/sandbox/start-latency.ts', args: quick },
  { name: 'engine-step', script: 'packages/engine/bench/step-overhead.ts', args: quick },
  { name: 'waiting-is-free', script: 'bench/waiting/waiting-is-free.ts', args: quick },
  { name: 'workspace-snapshots', script: 'bench/workspaces/snapshot-cost.ts', args: quick },
];

interface Outcome {
  name: string;
  command: string;
  exitCode: number | null;
  seconds: number;
  /** Every JSON object the benchmark printed on a line of its own. */
  reports: unknown[];
}

function run(bench: (typeof BENCHES)[number]): Promise<Outcome> {
  const command = `npx tsx ${bench.script} ${bench.args.join(' ')}`.trim();
  console.log(`\n=== ${bench.name}: ${command}\n`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, bench.script), ...bench.args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.once('exit', (exitCode) => {
      const reports = output
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith('{') && line.endsWith('}'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as unknown];
          } catch {
            return [];
          }
        });
      resolve({ name: bench.name, command, exitCode, seconds: (performance.now() - started) / 1000, reports });
    });
  });
}

const outcomes: Outcome[] = [];
for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) outcomes.push(await run(bench));

const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.versions.node}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'results.json'), `${JSON.stringify({ at: new Date().toISOString(), full, machine, outcomes }, null, 2)}\n`);
const table = [
  `# Benchmark run ${new Date().toISOString()} (${full ? 'full' : 'quick'})`,
  '',
  `Machine: ${machine}.`,
  '',
  '| benchmark | command | exit | seconds | reported |',
  '|---|---|---:|---:|---|',
  ...outcomes.map((o) => `| ${o.name} | \`${o.command}\` | ${o.exitCode} | ${o.seconds.toFixed(0)} | ${o.reports.map((r) => `\`${JSON.stringify(r)}\``).join('<br>')} |`),
];
writeFileSync(join(out, 'results.md'), `${table.join('\n')}\n`);
console.log(`\nResults: ${join(out, 'results.json')} and results.md`);
const failed = outcomes.filter((o) => o.exitCode !== 0);
if (failed.length > 0) {
  console.error(`Failed: ${failed.map((o) => o.name).join(', ')}`);
  process.exitCode = 1;
}
