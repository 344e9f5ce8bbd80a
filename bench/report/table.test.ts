import { describe, expect, it } from 'vitest';
import type { Bench } from './benches';
import { figuresOf } from './results-file';
import { ResultsSchema, type Results } from './schema';
import { benchmarkTable, BEGIN_MARKER, END_MARKER, formatRatio, replaceBetweenMarkers } from './table';

const benches: Bench[] = [
  { name: 'step-overhead', title: 'durable step overhead', script: 'bench/compare/step-overhead.ts', full: [], quick: ['--quick'] },
  { name: 'density', title: 'density', script: 'bench/compare/density.ts', full: [], quick: [] },
  { name: 'sandbox-start', title: 'sandbox start', script: 'bench/sandbox/start-latency.ts', full: [], quick: [] },
  { name: 'soak', title: 'soak', script: 'bench/soak/soak.ts', full: [], quick: [] },
];

const stepReport = {
  bench: 'step-overhead',
  figures: [
    {
      key: 'step-overhead.strict-vs-sync',
      label: 'ms per turn p50, strict vs `sync`',
      unit: 'ms',
      looplane: { median: 6.04, min: 5.81, max: 6.52, n: 5 },
      peer: { label: 'LangGraph `sync`', value: { median: 33.2, min: 31, max: 35.5, n: 5 } },
      ratio: { value: { median: 0.182, min: 0.17, max: 0.2, n: 5 }, below: 'faster', above: 'slower' },
      goals: [
        { text: 'p50 ≤ 2 ms', met: false },
        { text: '≥ 10× faster than `sync`', met: false },
      ],
    },
    {
      key: 'step-overhead.strict-vs-async',
      label: 'strict vs `async`',
      unit: 'ms',
      looplane: { median: 6.04, min: 5.81, max: 6.52, n: 5 },
      peer: { label: 'LangGraph `async`', value: { median: 4.77, min: 4.5, max: 5.1, n: 5 } },
      ratio: { value: { median: 1.27, min: 1.2, max: 1.4, n: 5 }, below: 'faster', above: 'slower' },
    },
  ],
  repetitions: [{ p50: 6.04 }],
};

function results(overrides: Partial<Results> = {}): Results {
  const reports = [stepReport];
  return ResultsSchema.parse({
    format: 1,
    quick: false,
    date: '2026-12-03T14:00:00.000Z',
    commit: { sha: 'abc1234def', short: 'abc1234', dirty: false, dirtyPaths: [] },
    machine: {
      cpu: 'AMD EPYC',
      cores: 2,
      memoryBytes: 24 * 2 ** 30,
      node: '20.20.2',
      loadAverage: { start: [0.31, 0.5, 0.6], end: [1.2, 0.9, 0.7] },
      postgres: { version: '15.20 (Debian 15.20-0+deb12u1)', shared_buffers: '128MB', synchronous_commit: 'on', fsync: 'on', wal_level: 'replica' },
    },
    outcomes: [
      { name: 'step-overhead', command: 'npx tsx bench/compare/step-overhead.ts', exitCode: 0, seconds: 120, reports, ...figuresOf(reports) },
      // A benchmark that prints JSON lines, but not in the results format yet.
      {
        name: 'density',
        command: 'npx tsx bench/compare/density.ts',
        exitCode: 0,
        seconds: 90,
        reports: [{ bench: 'density', wall: 7.1 }],
        ...figuresOf([{ bench: 'density', wall: 7.1 }]),
      },
      { name: 'sandbox-start', command: 'npx tsx bench/sandbox/start-latency.ts', exitCode: 1, seconds: 3, reports: [], figures: [], formatErrors: [] },
    ],
    ...overrides,
  });
}

describe('the README benchmark table', () => {
  it('writes each figure as median (min–max), the peer beside it, the ratio worded, and a missed goal as MISSED', () => {
    const table = benchmarkTable(benches, { results: results(), link: 'bench/results/2026-12-03-abc1234.json' }).split('\n');
    expect(table[1]).toBe(
      'From [`bench/results/2026-12-03-abc1234.json`](bench/results/2026-12-03-abc1234.json): a full run of 2026-12-03 at commit `abc1234` (clean tree);',
    );
    expect(table[2]).toBe(
      '2 × AMD EPYC, 24.0 GiB, Node 20.20.2, Postgres 15.20 (fsync on, synchronous_commit on, shared_buffers 128MB, wal_level replica); load average 0.3 at the start, 1.2 at the end.',
    );
    expect(table.slice(7)).toEqual([
      '| durable step overhead (`bench/compare/step-overhead.ts`) | ms per turn p50, strict vs `sync` | **6.04 ms** (5.81–6.52) | LangGraph `sync`: 33.2 ms (31.0–35.5) | 5.49× faster (5.00–5.88) | p50 ≤ 2 ms: **MISSED**; ≥ 10× faster than `sync`: **MISSED** |',
      '| durable step overhead (`bench/compare/step-overhead.ts`) | strict vs `async` | **6.04 ms** (5.81–6.52) | LangGraph `async`: 4.77 ms (4.50–5.10) | 1.27× slower (1.20–1.40) | — |',
      '| density (`bench/compare/density.ts`) | ran, but reports no figures in the results format yet (its raw JSON lines are in the file) | — | — | — | — |',
      '| sandbox start (`bench/sandbox/start-latency.ts`) | failed in this run (exit 1); no figures quoted | — | — | — | — |',
      '| soak (`bench/soak/soak.ts`) | not in this results file | — | — | — | — |',
    ]);
  });

  it('marks a met goal as met, and figures of fewer than 5 repetitions as such', () => {
    const r = results();
    const figure = r.outcomes[0]!.figures[0]!;
    r.outcomes[0]!.figures = [{ ...figure, looplane: { median: 1.5, min: 1.4, max: 1.6, n: 3 }, goals: [{ text: 'p50 ≤ 2 ms', met: true }] }];
    const row = benchmarkTable(benches, { results: r, link: 'x.json' }).split('\n')[7]!;
    expect(row).toContain('| **1.50 ms** (1.40–1.60, n = 3: fewer than 5 repetitions) |');
    expect(row).toContain('| p50 ≤ 2 ms: met |');
  });

  it('says so for every benchmark when there is no results file, and flags a --quick or dirty run', () => {
    const table = benchmarkTable(benches).split('\n');
    expect(table[1]).toContain('No full results file');
    expect(table.slice(5)).toHaveLength(benches.length);
    for (const row of table.slice(5)) expect(row).toContain('| no full results file yet |');
    const quick = benchmarkTable(benches, {
      results: results({ quick: true, commit: { sha: 'a', short: 'a', dirty: true, dirtyPaths: ['x', 'y'] } }),
      link: 'q.json',
    });
    expect(quick).toContain('**a `--quick` run (small sizes; not for quoting)**');
    expect(quick).toContain('(with uncommitted changes in 2 paths)');
  });

  it('inverts a ratio under 1 and escapes pipes in labels', () => {
    expect(formatRatio({ value: { median: 0.5, min: 0.25, max: 1, n: 5 }, below: 'less', above: 'more' })).toBe('2.00× less (1.00–4.00)');
    const r = results();
    r.outcomes[0]!.figures = [{ ...r.outcomes[0]!.figures[1]!, label: 'a | b' }];
    expect(benchmarkTable(benches, { results: r, link: 'x.json' })).toContain('| a \\| b |');
  });

  it('replaces only what lies between the markers, and refuses a README without them', () => {
    const readme = `# Title\n\nBefore.\n${BEGIN_MARKER}\nold table\n${END_MARKER}\nAfter.\n`;
    expect(replaceBetweenMarkers(readme, 'new table')).toBe(`# Title\n\nBefore.\n${BEGIN_MARKER}\nnew table\n${END_MARKER}\nAfter.\n`);
    expect(() => replaceBetweenMarkers('# no markers', 'x')).toThrow('bench:begin');
  });

  it('keeps the figures of a report in the format and says why one is not', () => {
    expect(figuresOf([stepReport, { bench: 'other', p50: 3 }]).figures.map((f) => f.key)).toEqual([
      'step-overhead.strict-vs-sync',
      'step-overhead.strict-vs-async',
    ]);
    const bad = figuresOf([{ bench: 'x', figures: [{ key: 'k', label: 'l', unit: 'ms', looplane: { median: 1 } }] }]);
    expect(bad.figures).toEqual([]);
    expect(bad.formatErrors[0]).toContain('figures.0.looplane.min');
  });
});
