// The results format: what `npm run bench` keeps under bench/results/ and `npm run bench:report`
// turns into the README's table. A benchmark reports its figures by printing one JSON line with a
// `figures` array of {@link Figure}s (and its raw repetitions beside them); run-all collects the
// lines of every benchmark, whatever their shape, and checks the figures against this schema.
import { z } from 'zod';

/** One figure over repetitions: median with min–max (bench/compare/stats.ts `stat`). */
const StatSchema = z.object({ median: z.number(), min: z.number(), max: z.number(), n: z.number().int().positive() });
export type Stat = z.infer<typeof StatSchema>;

const GoalSchema = z.object({
  /** The goal as a reader would state it: "p50 ≤ 2 ms", "≥ 10× faster than LangGraph `sync`". */
  text: z.string().min(1),
  /** Judged on the medians. */
  met: z.boolean(),
});

export const FigureSchema = z.object({
  /** Stable id of the figure ("step-overhead.strict-vs-sync"). */
  key: z.string().min(1),
  /** What is measured, for the table's row. */
  label: z.string().min(1),
  /** The unit the values are in: "ms", "MB", "runs/s", "×". */
  unit: z.string(),
  looplane: StatSchema,
  /** The same figure for the peer, measured in the same run. */
  peer: z.object({ label: z.string().min(1), value: StatSchema }).optional(),
  /**
   * Looplane ÷ the peer (or ÷ the floor), one per repetition. Shown as "N× <below>" when under 1
   * (inverted) and "N× <above>" otherwise: {below: 'faster', above: 'slower'} for times.
   */
  ratio: z.object({ value: StatSchema, below: z.string(), above: z.string() }).optional(),
  goals: z.array(GoalSchema).default([]),
});
export type Figure = z.infer<typeof FigureSchema>;
export type FigureInput = z.input<typeof FigureSchema>;

/** A benchmark's JSON line in the results format (other keys, such as raw repetitions, are kept as printed). */
export const FigureReportSchema = z.looseObject({ bench: z.string(), figures: z.array(FigureSchema) });

const PostgresSettingsSchema = z.object({
  version: z.string(),
  shared_buffers: z.string(),
  synchronous_commit: z.string(),
  fsync: z.string(),
  wal_level: z.string(),
});

const MachineSchema = z.object({
  cpu: z.string(),
  cores: z.number().int(),
  memoryBytes: z.number(),
  node: z.string(),
  /** 1, 5 and 15 minute load averages when the run started and when it ended. */
  loadAverage: z.object({ start: z.array(z.number()), end: z.array(z.number()) }),
  /** SHOW on the database server the benchmarks use. */
  postgres: PostgresSettingsSchema.nullable(),
});

const OutcomeSchema = z.object({
  name: z.string(),
  command: z.string(),
  exitCode: z.number().int().nullable(),
  seconds: z.number(),
  /** Every JSON object the benchmark printed on a line of its own, as printed (raw repetitions included). */
  reports: z.array(z.unknown()),
  /** The figures found in those reports in the results format; empty for a benchmark that reports none yet. */
  figures: z.array(FigureSchema),
  /** Why a report that had `figures` did not fit the format, if one did not. */
  formatErrors: z.array(z.string()),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const ResultsSchema = z.object({
  format: z.literal(1),
  /** A full run (README sizes) or `--quick` (small sizes, never kept in bench/results). */
  quick: z.boolean(),
  /** When the run started (ISO). */
  date: z.string(),
  commit: z.object({ sha: z.string(), short: z.string(), dirty: z.boolean(), dirtyPaths: z.array(z.string()) }),
  machine: MachineSchema,
  outcomes: z.array(OutcomeSchema),
});
export type Results = z.infer<typeof ResultsSchema>;
