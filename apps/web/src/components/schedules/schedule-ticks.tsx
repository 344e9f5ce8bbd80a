import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { formatInZone, tickTone } from '@/lib/schedule-format';

type Tick = RouterOutputs['schedules']['get']['ticks'][number];

const COLUMNS = 4;

/** A schedule's latest ticks, newest first: the runs it started (with their status), the ticks it skipped and why, and the ones that failed to start. */
export function ScheduleTicks({ ticks, timezone, base, loading }: { ticks: readonly Tick[]; timezone: string; base: string; loading: boolean }) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Tick</Th>
          <Th>Outcome</Th>
          <Th>Reason</Th>
          <Th>Run</Th>
        </tr>
      </thead>
      <tbody data-testid="schedule-ticks">
        {loading ? <TableMessage colSpan={COLUMNS}>Loading ticks…</TableMessage> : null}
        {!loading && ticks.length === 0 ? <TableMessage colSpan={COLUMNS}>No ticks yet. Run it now to see one.</TableMessage> : null}
        {ticks.map((tick) => (
          <Tr key={tick.id} data-testid="schedule-tick" data-outcome={tick.outcome} data-run-id={tick.runId ?? ''}>
            <Td className="text-xs whitespace-nowrap">
              <div>{formatDateTime(tick.scheduledAt)}</div>
              <div className="text-muted">{formatInZone(tick.scheduledAt, timezone)}</div>
            </Td>
            <Td className="text-xs">
              <Badge tone={tickTone(tick.outcome, tick.runStatus)} data-testid="schedule-tick-outcome">
                {tick.outcome}
              </Badge>
            </Td>
            <Td className="max-w-md text-xs text-muted" data-testid="schedule-tick-reason">
              {tick.reason ?? '—'}
            </Td>
            <Td className="text-xs whitespace-nowrap">
              {tick.runId ? (
                <Link
                  href={`${base}/runs/${tick.runId}`}
                  className="inline-flex items-center gap-1.5 text-accent hover:underline"
                  data-testid="schedule-tick-run"
                >
                  <span className="font-mono">{tick.runId}</span>
                  {tick.runStatus ? <Badge tone={tickTone('started', tick.runStatus)}>{tick.runStatus}</Badge> : null}
                </Link>
              ) : (
                <span className="text-muted">—</span>
              )}
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
