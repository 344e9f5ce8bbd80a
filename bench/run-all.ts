// Runs every benchmark (bench/report/benches.ts), one after the other, each in its own process (so
// none shares memory or an event loop with the next), at the sizes the README reports; `--quick`
// runs each at a small size instead (the test suite does, so no benchmark rots) and asserts no
// timing. Prints each benchmark's own output and keeps every JSON line it printed, with the figures
// in the results format (bench/report/schema.ts), the commit and the machine, in one results file:
// `bench/results/<YYYY-MM-DD>-<shortcommit>.json` for a full run of every benchmark, which
// `npm run bench:report` turns into the README's table; a temp folder for `--quick` or `--only`
// (`--out DIR` to choose). Exits 1 if any benchmark failed.
// Run: `npm run bench [-- --quick] [-- --only step-overhead,density] [-- --out DIR]`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHES, type Bench } from './report/benches';
import { describeMachine, gitCommit, loadAverage } from './report/machine';
import { figuresOf, resultsFileName } from './report/results-file';
import { ResultsSchema, type Outcome, type Results } from './report/schema';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('only')?.split(',');
const started = new Date();
// Only a full run of every benchmark goes to bench/results by default: the newest file there is
// the README's table, which a partial or quick run would empty.
const out = arg('out') ?? (quick || only ? join(tmpdir(), `looplane-bench-${started.toISOString().replace(/[:.]/g, '-')}`) : join(root, 'bench', 'results'));

/** Every JSON object printed on a line of its own. */
function jsonLines(output: string): unknown[] {
  return output
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
}

function run(bench: Bench): Promise<Outcome> {
  const args = quick ? bench.quick : bench.full;
  const command = `npx tsx ${bench.script} ${args.join(' ')}`.trim();
  console.log(`\n=== ${bench.name}: ${command}\n`);
  const begun = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, bench.script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.once('exit', (exitCode) => {
      const reports = jsonLines(output);
      resolve({ name: bench.name, command, exitCode, seconds: Number(((performance.now() - begun) / 1000).toFixed(1)), reports, ...figuresOf(reports) });
    });
  });
}

const commit = gitCommit(root);
const machine = await describeMachine();
const outcomes: Outcome[] = [];
for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) outcomes.push(await run(bench));
machine.loadAverage.end = loadAverage();

const results: Results = ResultsSchema.parse({ format: 1, quick, date: started.toISOString(), commit, machine, outcomes });
mkdirSync(out, { recursive: true });
// A second full run of the same commit on the same day keeps the first: <date>-<commit>-2.json.
const base = resultsFileName(started, commit.short);
let file = join(out, base);
for (let i = 2; existsSync(file); i++) file = join(out, base.replace(/\.json$/, `-${i}.json`));
writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);

console.log(`\n${'benchmark'.padEnd(22)} exit  seconds  figures`);
for (const o of outcomes)
  console.log(
    `${o.name.padEnd(22)} ${String(o.exitCode).padStart(4)}  ${o.seconds.toFixed(0).padStart(7)}  ${o.figures.length}${o.formatErrors.length ? ` (format errors: ${o.formatErrors.join(' | ')})` : ''}`,
  );
console.log(`\nResults: ${file}${quick ? ' (--quick: not for the README)' : '; npm run bench:report puts them in the README'}`);
if (commit.dirty) console.log(`Note: the tree had uncommitted changes (${commit.dirtyPaths.length} paths); the results file lists them.`);
// A report that claims figures the format does not accept is a broken benchmark too.
const failed = outcomes.filter((o) => o.exitCode !== 0 || o.formatErrors.length > 0);
if (failed.length > 0) {
  console.error(`Failed: ${failed.map((o) => o.name).join(', ')}`);
  process.exitCode = 1;
}
