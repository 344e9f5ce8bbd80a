import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'looplane-bench-quick-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Results {
  full: boolean;
  outcomes: Array<{ name: string; exitCode: number | null; reports: unknown[] }>;
}

/**
 * `npm run bench -- --quick` as the suite's guard against benchmark rot: every benchmark runs at a
 * small size against the real stack and must finish and report; no timing is asserted.
 */
describe('npm run bench -- --quick', () => {
  it('runs every benchmark to completion, each reporting its figures as JSON', async () => {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/run-all.ts'), '--quick', '--out', out], { cwd: root, stdio: 'ignore' });
      child.once('exit', resolve);
    });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.full).toBe(false);
    expect(results.outcomes.map((o) => o.name)).toEqual(['step-overhead', 'density', 'sse-latency', 'api-throughput', 'sandbox-start', 'engine-step', 'waiting-is-free', 'workspace-snapshots']);
    expect(results.outcomes.filter((o) => o.exitCode !== 0)).toEqual([]);
    // The engine's in-memory step bench prints a table only; every other one a JSON line.
    for (const o of results.outcomes.filter((x) => x.name !== 'engine-step')) expect(o.reports.length, o.name).toBeGreaterThan(0);
    // The workspace snapshot bench also writes its raw results (a temp file at --quick), which its JSON line names.
    const snapshots = results.outcomes.find((o) => o.name === 'workspace-snapshots')!.reports[0] as { quick: boolean; results: string };
    expect(snapshots.quick).toBe(true);
    const raw = JSON.parse(readFileSync(snapshots.results, 'utf8')) as { quick: boolean; repetitions: unknown[] };
    rmSync(snapshots.results, { force: true });
    expect(raw.quick).toBe(true);
    expect(raw.repetitions.length).toBeGreaterThan(0);
    expect(code).toBe(0);
  }, 600_000);
});
