import { formatDateTime } from '@/lib/format';
import { formatInZone } from '@/lib/schedule-format';

/** "in 45 s", "in 12 min", "in 3 h", "in 2 d"; "due now" once it has passed. */
function untilText(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (seconds <= 0) return 'due now';
  if (seconds < 90) return `in ${seconds} s`;
  if (seconds < 5400) return `in ${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `in ${Math.round(seconds / 3600)} h`;
  return `in ${Math.round(seconds / 86_400)} d`;
}

/**
 * A schedule's next tick: how soon, the wall time in the schedule's own zone (what its cron
 * means) and in the viewer's; "—" while it is paused.
 */
export function NextFire({ at, timezone, now }: { at: Date | null; timezone: string; now: number | null }) {
  if (!at) return <span className="text-muted">— (paused)</span>;
  const local = formatDateTime(at);
  return (
    <span className="flex flex-col gap-0.5 text-xs" data-testid="schedule-next-fire" data-at={at.toISOString()}>
      <span className="font-medium tabular-nums">{now === null ? local : untilText(at, now)}</span>
      <span className="text-muted" data-testid="schedule-next-fire-zone">
        {formatInZone(at, timezone)}
      </span>
      <span className="text-muted" data-testid="schedule-next-fire-local">
        {local} your time
      </span>
    </span>
  );
}
