'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { useUrlState } from '@/lib/use-url-state';
import { useTRPC } from '@/trpc/client';
import { downloadCsv, formatUsd, toCsv } from './csv';
import { SpendChart } from './spend-chart';

const VIEWS = [
  { id: 'byAgent', label: 'Agent' },
  { id: 'byEndpoint', label: 'Endpoint' },
  { id: 'byEdge', label: 'Graph edge' },
] as const;
type View = (typeof VIEWS)[number]['id'];
const PERIODS = [7, 30, 90] as const;

// The period and the view live in the URL (?days=7&view=byEndpoint), so a view can be shared and
// survives a reload; a value the page does not offer falls back to the default.
const URL_DEFAULTS = { days: '30', view: 'byAgent' };
const isView = (value: string): value is View => VIEWS.some((v) => v.id === value);

/** The team's spend over time, by agent / endpoint / graph edge, the top runs, and CSV export. */
export function SpendPanel() {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const url = useUrlState(URL_DEFAULTS);
  const days = PERIODS.find((d) => String(d) === url.get('days')) ?? 30;
  const wanted = url.get('view');
  const view: View = isView(wanted) ? wanted : 'byAgent';
  const spend = useQuery(trpc.costs.spend.queryOptions({ teamId: team.id, days }));
  const data = spend.data;
  const series = data ? data[view] : [];
  const label = VIEWS.find((v) => v.id === view)!.label.toLowerCase();

  const exportCsv = () => {
    if (!data) return;
    const rows = series.flatMap((s) => data.days.map((day, i) => [day, s.name, s.id, s.costMicros[i] ?? 0, ((s.costMicros[i] ?? 0) / 1_000_000).toFixed(6)]));
    downloadCsv(`looplane-${team.slug}-spend-by-${label.replace(' ', '-')}-${days}d.csv`, toCsv(['day', label, 'id', 'cost_micros', 'cost_usd'], rows));
  };

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title={`Spend: ${data ? formatUsd(data.totalCostMicros) : '…'} in ${days} days`}
          description={data ? `${data.totalTokens.toLocaleString('en-US')} tokens. Model calls as recorded in the run logs; days are UTC.` : 'Loading…'}
          actions={
            <div className="flex items-center gap-2">
              <select
                aria-label="Period"
                className="h-7 rounded border border-border bg-surface px-2 text-xs"
                value={days}
                onChange={(e) => url.set({ days: e.target.value })}
                data-testid="costs-days"
              >
                {PERIODS.map((d) => (
                  <option key={d} value={d}>{`${d} days`}</option>
                ))}
              </select>
              <Button size="sm" onClick={exportCsv} disabled={!data} data-testid="costs-export">
                Export CSV
              </Button>
            </div>
          }
        />
        <InlineError error={spend.error} testId="costs-error" className="mx-4 mb-4" />
        <div className="flex gap-1 px-4" role="tablist">
          {VIEWS.map((v) => (
            <Button
              key={v.id}
              size="sm"
              variant={v.id === view ? 'primary' : 'ghost'}
              onClick={() => url.set({ view: v.id })}
              role="tab"
              aria-selected={v.id === view}
              data-testid={`costs-view-${v.id}`}
            >
              {v.label}
            </Button>
          ))}
        </div>
        <div className="p-4">{data ? <SpendChart days={data.days} series={series} testId="costs-chart" /> : null}</div>
        <Table>
          <thead>
            <tr>
              <Th>{VIEWS.find((v) => v.id === view)!.label}</Th>
              <Th className="text-right">Spend</Th>
              <Th className="text-right">Tokens</Th>
            </tr>
          </thead>
          <tbody data-testid="costs-series">
            {data && series.length === 0 ? <TableMessage colSpan={3}>No spend in this window.</TableMessage> : null}
            {series.map((s) => (
              <Tr key={s.id}>
                <Td>{s.name}</Td>
                <Td className="text-right font-mono text-xs">{formatUsd(s.totalCostMicros)}</Td>
                <Td className="text-right font-mono text-xs">{s.tokens.toLocaleString('en-US')}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </Card>
      <Card>
        <CardHeader title="Runs that spent most" description="Open one for its breakdown by model call, session, endpoint and graph edge." />
        <Table>
          <thead>
            <tr>
              <Th>Run</Th>
              <Th>Agent</Th>
              <Th>Status</Th>
              <Th className="text-right">Spend</Th>
            </tr>
          </thead>
          <tbody data-testid="costs-top-runs">
            {data && data.topRuns.length === 0 ? <TableMessage colSpan={4}>No runs spent anything in this window.</TableMessage> : null}
            {data?.topRuns.map((run) => (
              <Tr key={run.id}>
                <Td className="max-w-md truncate">
                  <Link className="hover:underline" href={`/t/${team.slug}/costs/${run.id}`}>
                    {run.goal}
                  </Link>
                </Td>
                <Td className="text-xs">{run.agent ?? '—'}</Td>
                <Td className="text-xs">{run.status}</Td>
                <Td className="text-right font-mono text-xs">{formatUsd(run.costMicros)}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
