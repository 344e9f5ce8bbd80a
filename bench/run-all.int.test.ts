import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHES } from './report/benches';
import { isResultsFileName } from './report/results-file';
import { ResultsSchema } from './report/schema';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'looplane-bench-quick-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * `npm run bench -- --quick` as the suite's guard against benchmark rot: every benchmark runs at a
 * small size against the real stack and must finish and report, and the results file must have
 * the shape `npm run bench:report` reads; no timing is asserted.
 */
describe('npm run bench -- --quick', () => {
  it('runs every benchmark to completion, each reporting its figures, into one results file', async () => {
    const kept = readdirSync(join(root, 'bench', 'results'));
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/run-all.ts'), '--quick', '--out', out], { cwd: root, stdio: 'ignore' });
      child.once('exit', resolve);
    });
    // --quick never writes a results file into bench/results (other benches' own files may appear
    // there meanwhile, from runs outside this test).
    expect(readdirSync(join(root, 'bench', 'results')).filter((name) => isResultsFileName(name) && !kept.includes(name))).toEqual([]);
    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(isResultsFileName(files[0]!)).toBe(true);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(out, files[0]!), 'utf8')));
    expect(results.quick).toBe(true);
    expect(results.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(results.machine.cores).toBeGreaterThan(0);
    expect(results.machine.postgres?.fsync).toBeDefined();
    expect(results.machine.postgres?.version).toMatch(/^\d+/);

    expect(results.outcomes.map((o) => o.name)).toEqual(BENCHES.map((b) => b.name));
    expect(results.outcomes.filter((o) => o.exitCode !== 0 || o.formatErrors.length > 0)).toEqual([]);
    // Every benchmark prints its figures in the results format (goals may depend on the size:
    // density states its goals at N = 2,000 only).
    for (const o of results.outcomes) {
      expect(o.reports.length, o.name).toBeGreaterThan(0);
      expect(o.formatErrors, o.name).toEqual([]);
      expect(o.figures.length, o.name).toBeGreaterThan(0);
      expect(new Set(o.figures.map((f) => f.key)).size, `${o.name}: figure keys are unique`).toBe(o.figures.length);
    }

    // The step overhead reports in the results format: the strict row against `sync`, with its
    // repetitions (2 at --quick) and their raw summaries beside the figures.
    const step = results.outcomes.find((o) => o.name === 'step-overhead')!;
    const headline = step.figures.find((f) => f.key === 'step-overhead.strict-vs-sync')!;
    expect(headline.looplane.n).toBe(2);
    expect(headline.peer?.value.n).toBe(2);
    expect(headline.goals.length).toBeGreaterThan(0);
    expect((step.reports[0] as { repetitions: unknown[] }).repetitions).toHaveLength(2);

    // The workspace snapshot bench also writes its raw results (a temp file at --quick), which its JSON line names.
    const snapshots = results.outcomes.find((o) => o.name === 'workspace-snapshots')!.reports[0] as { quick: boolean; results: string };
    expect(snapshots.quick).toBe(true);
    const raw = JSON.parse(readFileSync(snapshots.results, 'utf8')) as { quick: boolean; repetitions: unknown[] };
    rmSync(snapshots.results, { force: true });
    expect(raw.quick).toBe(true);
    expect(raw.repetitions.length).toBeGreaterThan(0);

    // The soak at its small size stays within its bounds (it exits 1 otherwise, checked above) and
    // says which it judged.
    const soak = results.outcomes.find((o) => o.name === 'soak')!.reports[0] as {
      soak: { turns: number; toolCalls: number; verdicts: { ok: boolean; gated: string[] } };
    };
    expect(soak.soak.toolCalls).toBe(soak.soak.turns);
    expect(soak.soak.verdicts.ok).toBe(true);
    expect(soak.soak.verdicts.gated).toEqual(expect.arrayContaining(['memory', 'context']));
    expect(code).toBe(0);
  }, 1_200_000);
});
