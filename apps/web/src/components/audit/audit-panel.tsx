'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { useUrlState } from '@/lib/use-url-state';
import { AUDIT_URL_DEFAULTS, AuditFilters, filtersFromUrl, filtersToUrl } from './audit-filters';
import { AuditVerify } from './audit-verify';

const PAGE = 50;

function summary(data: unknown): string {
  if (!data || typeof data !== 'object' || Object.keys(data).length === 0) return '';
  const text = JSON.stringify(data);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The team's audit log (admins): verify the chain, export it, filter and page through rows. */
export function AuditPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  // The filters live in the URL (?action=policy.&actor=…): a filtered log can be shared and reloaded.
  const url = useUrlState(AUDIT_URL_DEFAULTS);
  const filters = filtersFromUrl(url.get);
  const rows = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { teamId: team.id, limit: PAGE, ...filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, enabled: role === 'admin' },
    ),
  );

  if (role !== 'admin') {
    return (
      <p className="text-muted" data-testid="audit-admin-only">
        Only admins can read the audit log.
      </p>
    );
  }
  const all = rows.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <div className="flex flex-col gap-6">
      <AuditVerify teamId={team.id} />
      <Card>
        <CardHeader
          title="Audit log"
          description="Every human and admin action, newest first. Rows are chained by hash; the database refuses to change or delete one."
        />
        <AuditFilters teamId={team.id} initial={filters} onApply={(next) => url.set(filtersToUrl(next))} />
        <InlineError error={rows.error} testId="audit-load-error" className="mx-4 mb-4" />
        <Table>
          <thead>
            <tr>
              <Th>#</Th>
              <Th>When</Th>
              <Th>Actor</Th>
              <Th>Action</Th>
              <Th>Target</Th>
              <Th>Details</Th>
              <Th>IP</Th>
            </tr>
          </thead>
          <tbody data-testid="audit-table">
            {rows.isPending ? <TableMessage colSpan={7}>Loading…</TableMessage> : null}
            {!rows.isPending && all.length === 0 ? <TableMessage colSpan={7}>No audit rows match.</TableMessage> : null}
            {all.map((row) => (
              <Tr key={row.seq} data-testid="audit-row">
                <Td className="font-mono text-xs text-muted">{row.seq}</Td>
                <Td className="text-xs whitespace-nowrap">{formatDateTime(row.createdAt)}</Td>
                <Td className="text-xs">{row.actorLabel}</Td>
                <Td className="font-mono text-xs" data-testid="audit-row-action">
                  {row.action}
                </Td>
                <Td className="text-xs">{row.targetType ? `${row.targetType} ${row.targetId ?? ''}` : '—'}</Td>
                <Td className="max-w-md truncate font-mono text-[11px] text-muted" title={JSON.stringify(row.data)}>
                  {summary(row.data)}
                </Td>
                <Td className="text-xs text-muted">{row.ip ?? '—'}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
        {rows.hasNextPage ? (
          <div className="border-t border-border p-3 text-center">
            <Button size="sm" onClick={() => void rows.fetchNextPage()} disabled={rows.isFetchingNextPage} data-testid="audit-more">
              Load older rows
            </Button>
          </div>
        ) : null}
      </Card>
    </div>
  );
}
