// The always-on figures in the results format (bench/report/schema.ts), each the median over the
// measured windows (triggers) or ticks (schedules) with min–max. Goals (bench/README.md, sections 9
// and 10): ≥ 500 accepted trigger deliveries a second with 32 senders; a schedule tick's lateness
// p99 ≤ 1 s with 1,000 schedules firing every minute, each tick making exactly one run per schedule.
import { stat } from '../compare/stats';
import { FigureSchema, type Figure, type FigureInput } from '../report/schema';

export const TRIGGER_GOAL_PER_SECOND = 500;
export const LATENESS_GOAL_MS = 1000;

/** One value per measured window. */
export interface TriggerSeries {
  senders: number;
  triggers: number;
  perSecond: number[];
  p50Ms: number[];
  p99Ms: number[];
}

export function triggerFigures(s: TriggerSeries): Figure[] {
  const perSecond = stat(s.perSecond, 0);
  const on = `${s.senders} senders over keep-alive HTTP, ${s.triggers === 1 ? 'one trigger' : `${s.triggers} triggers`}`;
  const figures: FigureInput[] = [
    {
      key: 'triggers.accepted-per-second',
      label: `signed deliveries to POST /api/hooks/{id} accepted (202, each a new run) per second, ${on}`,
      unit: 'deliveries/s',
      looplane: perSecond,
      goals: [{ text: `≥ ${TRIGGER_GOAL_PER_SECOND}/s with ${s.senders} senders`, met: perSecond.median >= TRIGGER_GOAL_PER_SECOND }],
    },
    { key: 'triggers.accepted-p99', label: `delivery sent → 202 answered (its run committed and enqueued), p99, ${on}`, unit: 'ms', looplane: stat(s.p99Ms) },
    { key: 'triggers.accepted-p50', label: 'delivery sent → 202 answered, p50', unit: 'ms', looplane: stat(s.p50Ms) },
  ];
  return FigureSchema.array().parse(figures);
}

/** One value per measured tick. */
export interface LatenessSeries {
  schedules: number;
  cron: string;
  p50Ms: number[];
  p99Ms: number[];
  maxMs: number[];
  runsPerTick: number[];
}

export function latenessFigures(s: LatenessSeries): Figure[] {
  const p99 = stat(s.p99Ms, 0);
  const runs = stat(s.runsPerTick, 0);
  const of = `${s.schedules.toLocaleString('en')} schedules \`${s.cron}\`, one worker`;
  const figures: FigureInput[] = [
    {
      key: 'schedules.tick-lateness-p99',
      label: `schedule tick lateness p99 (tick time → its run made and the tick recorded), ${of}`,
      unit: 'ms',
      looplane: p99,
      goals: [{ text: `p99 ≤ ${LATENESS_GOAL_MS} ms`, met: p99.median <= LATENESS_GOAL_MS }],
    },
    { key: 'schedules.tick-lateness-p50', label: 'schedule tick lateness p50', unit: 'ms', looplane: stat(s.p50Ms, 0) },
    { key: 'schedules.tick-lateness-max', label: 'schedule tick lateness, the last run of the tick (max)', unit: 'ms', looplane: stat(s.maxMs, 0) },
    {
      key: 'schedules.runs-per-tick',
      label: `runs made per tick (one per schedule: exactly once), ${of}`,
      unit: 'runs',
      looplane: runs,
      goals: [{ text: `exactly ${s.schedules.toLocaleString('en')} every tick`, met: runs.min === s.schedules && runs.max === s.schedules }],
    },
  ];
  return FigureSchema.array().parse(figures);
}
