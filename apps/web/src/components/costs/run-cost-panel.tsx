'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { downloadCsv, formatUsd, toCsv } from './csv';

function Totals({ title, rows, testId }: { title: string; rows: Array<{ name: string; costMicros: number; tokens: number }>; testId: string }) {
  return (
    <Card>
      <CardHeader title={title} />
      <Table>
        <tbody data-testid={testId}>
          {rows.length === 0 ? <TableMessage colSpan={3}>Nothing here.</TableMessage> : null}
          {rows.map((row) => (
            <Tr key={row.name}>
              <Td>{row.name}</Td>
              <Td className="text-right font-mono text-xs">{formatUsd(row.costMicros)}</Td>
              <Td className="text-right font-mono text-xs">{row.tokens.toLocaleString('en-US')} tokens</Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}

/** One run's spend: totals by session, endpoint and graph edge, every model call, CSV export. */
export function RunCostPanel({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const cost = useQuery(trpc.costs.run.queryOptions({ teamId: team.id, runId }));
  const data = cost.data;
  const exportCsv = () => {
    if (!data) return;
    const rows = data.modelCalls.map((c) => [c.at.toISOString(), c.eventNo, c.session, c.sessionId, c.endpoint, c.inputTokens, c.outputTokens, c.costMicros]);
    downloadCsv(
      `looplane-run-${runId}-cost.csv`,
      toCsv(['at', 'event_no', 'session', 'session_id', 'endpoint', 'input_tokens', 'output_tokens', 'cost_micros'], rows),
    );
  };
  return (
    <div className="flex flex-col gap-6">
      <InlineError error={cost.error} testId="run-cost-error" />
      <Card>
        <CardHeader
          title={data ? `${formatUsd(data.run.costMicros)} · ${data.run.tokens.toLocaleString('en-US')} tokens · ${data.run.toolCalls} tool calls` : 'Loading…'}
          description={
            data ? (
              <Link className="hover:underline" href={`/t/${team.slug}/runs/${runId}`}>
                {data.run.goal}
              </Link>
            ) : undefined
          }
          actions={
            <Button size="sm" onClick={exportCsv} disabled={!data} data-testid="run-cost-export">
              Export CSV
            </Button>
          }
        />
      </Card>
      {data ? (
        <div className="grid gap-6 lg:grid-cols-3">
          <Totals title="By session" rows={data.bySession} testId="run-cost-sessions" />
          <Totals title="By endpoint" rows={data.byEndpoint} testId="run-cost-endpoints" />
          <Totals title="By graph edge" rows={data.byEdge} testId="run-cost-edges" />
        </div>
      ) : null}
      <Card>
        <CardHeader title="Model calls" />
        <Table>
          <thead>
            <tr>
              <Th>When</Th>
              <Th>Session</Th>
              <Th>Endpoint</Th>
              <Th className="text-right">In</Th>
              <Th className="text-right">Out</Th>
              <Th className="text-right">Cost</Th>
            </tr>
          </thead>
          <tbody data-testid="run-cost-calls">
            {data && data.modelCalls.length === 0 ? <TableMessage colSpan={6}>No model calls yet.</TableMessage> : null}
            {data?.modelCalls.map((c) => (
              <Tr key={c.eventNo}>
                <Td className="text-xs whitespace-nowrap">{formatDateTime(c.at)}</Td>
                <Td className="text-xs">{c.session || c.sessionId}</Td>
                <Td className="text-xs">{c.endpoint}</Td>
                <Td className="text-right font-mono text-xs">{c.inputTokens}</Td>
                <Td className="text-right font-mono text-xs">{c.outputTokens}</Td>
                <Td className="text-right font-mono text-xs">{formatUsd(c.costMicros)}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
