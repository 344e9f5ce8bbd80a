import { isTerminalRunStatus, type RunStatus } from '@looplane/db/vocabulary';
import type { BadgeTone } from '@/components/ui/badge';

export type { RunStatus };

export const STATUS_TONE: Record<RunStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'accent',
  waiting: 'warning',
  paused: 'warning',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

export function isTerminal(status: RunStatus): boolean {
  return isTerminalRunStatus(status);
}

/** Micro-dollars as money: "$0", "$0.000018", "$0.0042", "$1.25", "$1,204". */
export function formatCost(micros: number): string {
  if (micros === 0) return '$0';
  const dollars = micros / 1_000_000;
  if (dollars < 0.01) return `$${dollars.toFixed(6).replace(/0+$/, '')}`;
  if (dollars < 100) return `$${dollars.toFixed(2)}`;
  return `$${Math.round(dollars).toLocaleString('en-US')}`;
}

/** "950", "12.3k", "4.1M". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** "0.4 s", "12 s", "3 min 4 s", "2 h 5 min", "3 d 4 h". */
export function formatDuration(ms: number): string {
  if (ms < 0) return '—';
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** How long a run has taken: start (or creation) to finish, or to now while it is still going. */
export function runDuration(run: { createdAt: Date; startedAt: Date | null; finishedAt: Date | null }, now: number): number {
  const start = (run.startedAt ?? run.createdAt).getTime();
  return (run.finishedAt?.getTime() ?? now) - start;
}
