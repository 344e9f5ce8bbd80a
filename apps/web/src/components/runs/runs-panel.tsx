'use client';

import { roleAtLeast } from '@looplane/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTeamActivity } from '@/components/live/team-activity';
import { useTeamScope } from '@/components/team-context';
import { Field, Input, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RunListPage } from '@/lib/api-types';
import { isTerminal, type RunStatus } from '@/lib/run-format';
import { useDebounced } from '@/lib/use-now';
import { useUrlState } from '@/lib/use-url-state';
import { useTRPC } from '@/trpc/client';
import { RunsTable } from './runs-table';

const STATUS_CHOICES: Record<string, { label: string; statuses?: RunStatus[] }> = {
  all: { label: 'All statuses' },
  active: { label: 'Active', statuses: ['queued', 'running', 'waiting', 'paused'] },
  queued: { label: 'Queued', statuses: ['queued'] },
  running: { label: 'Running', statuses: ['running'] },
  waiting: { label: 'Waiting', statuses: ['waiting'] },
  paused: { label: 'Paused', statuses: ['paused'] },
  succeeded: { label: 'Succeeded', statuses: ['succeeded'] },
  failed: { label: 'Failed', statuses: ['failed'] },
  cancelled: { label: 'Cancelled', statuses: ['cancelled'] },
};
const WAIT_CHOICES: Record<string, string> = { approval: 'an approval', budget: 'the budget', child: 'a child run', message: 'a message' };
type WaitReason = 'approval' | 'budget' | 'child' | 'message';
const SINCE_CHOICES: Record<string, { label: string; ms: number }> = {
  '24h': { label: 'the last 24 hours', ms: 86_400_000 },
  '7d': { label: 'the last 7 days', ms: 7 * 86_400_000 },
};
const URL_DEFAULTS = { status: 'all', wait: '', agent: '', graph: '', since: '', creator: 'anyone', sort: 'created', q: '' };
/** Activity-driven refetches of the list happen at most this often. */
const REFRESH_MS = 2500;

/**
 * The team's runs: filters, a virtualised list, live statuses from the team activity stream (a
 * status change patches its row at once; new and finished runs refresh the list, throttled).
 */
export function RunsPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team, role, user } = useTeamScope();
  const base = `/t/${team.slug}`;
  // Every filter lives in the URL (?status=waiting&wait=approval&agent=…): a view can be shared and reloaded.
  const url = useUrlState(URL_DEFAULTS);
  const status = STATUS_CHOICES[url.get('status')] ? url.get('status') : 'all';
  const wait = WAIT_CHOICES[url.get('wait')] ? url.get('wait') : '';
  const agentId = url.get('agent');
  const graphId = url.get('graph');
  const since = SINCE_CHOICES[url.get('since')] ? url.get('since') : '';
  const mine = url.get('creator') === 'me';
  const sort: 'created' | 'updated' = url.get('sort') === 'updated' ? 'updated' : 'created';
  const [text, setText] = useState(url.get('q'));
  const search = useDebounced(text.trim(), 300);
  // Only a settled search moves into the URL.
  const urlText = url.get('q');
  const setUrl = url.set;
  useEffect(() => {
    if (search !== urlText) setUrl({ q: search });
  }, [search, urlText, setUrl]);
  // The window's start, fixed when the filter is chosen (a moving "now" would refetch every render).
  const finishedSince = useMemo(() => (since ? new Date(Date.now() - SINCE_CHOICES[since]!.ms) : null), [since]);

  const statuses = STATUS_CHOICES[status]?.statuses;
  const input = {
    teamId: team.id,
    limit: 100,
    sort,
    ...(statuses ? { status: statuses } : {}),
    ...(wait ? { waitReason: [wait as WaitReason] } : {}),
    ...(agentId ? { agentId } : {}),
    ...(graphId ? { graphId } : {}),
    ...(finishedSince ? { finishedSince } : {}),
    ...(mine ? { createdById: user.id } : {}),
    ...(search ? { text: search } : {}),
  };
  const runs = useInfiniteQuery(trpc.runs.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const graphs = useQuery({ ...trpc.graphs.list.queryOptions({ teamId: team.id }), enabled: graphId !== '' });
  const rows = useMemo(() => runs.data?.pages.flatMap((page) => page.runs) ?? [], [runs.data]);

  const lastRefresh = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = () => {
    if (pending.current) return;
    const wait = Math.max(0, lastRefresh.current + REFRESH_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = null;
      lastRefresh.current = Date.now();
      void queryClient.invalidateQueries(trpc.runs.list.pathFilter());
    }, wait);
  };

  useTeamActivity((activity) => {
    if (activity.kind === 'ready') return refresh();
    if (activity.kind !== 'run.status') return;
    let found = false;
    queryClient.setQueriesData<InfiniteData<RunListPage>>(trpc.runs.list.pathFilter(), (data) => {
      if (!data?.pages) return data;
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          runs: page.runs.map((run) => {
            if (run.id !== activity.runId) return run;
            found = true;
            return { ...run, status: activity.status, waitReason: activity.waitReason ?? null };
          }),
        })),
      };
    });
    // New runs need the first page; finished ones their final cost and duration.
    if (!found || isTerminal(activity.status)) refresh();
  });

  return (
    <div className="flex h-[calc(100vh-105px)] flex-col gap-4 px-8 py-5">
      <div className="flex flex-wrap items-end gap-3" data-testid="runs-filters">
        <Field label="Status" htmlFor="runs-status" className="w-40">
          <Select
            id="runs-status"
            value={status}
            onChange={(e) => url.set({ status: e.target.value, ...(e.target.value === 'waiting' ? {} : { wait: '' }) })}
            data-testid="runs-filter-status"
          >
            {Object.entries(STATUS_CHOICES).map(([value, choice]) => (
              <option key={value} value={value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </Field>
        {status === 'waiting' ? (
          <Field label="Waiting on" htmlFor="runs-wait" className="w-40">
            <Select id="runs-wait" value={wait} onChange={(e) => url.set({ wait: e.target.value })} data-testid="runs-filter-wait">
              <option value="">Anything</option>
              {Object.entries(WAIT_CHOICES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        <Field label="Agent" htmlFor="runs-agent" className="w-44">
          <Select id="runs-agent" value={agentId} onChange={(e) => url.set({ agent: e.target.value })} data-testid="runs-filter-agent">
            <option value="">All agents</option>
            {agents.data?.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Creator" htmlFor="runs-creator" className="w-36">
          <Select id="runs-creator" value={mine ? 'me' : 'anyone'} onChange={(e) => url.set({ creator: e.target.value })} data-testid="runs-filter-creator">
            <option value="anyone">Anyone</option>
            <option value="me">Me</option>
          </Select>
        </Field>
        <Field label="Sort" htmlFor="runs-sort" className="w-40">
          <Select id="runs-sort" value={sort} onChange={(e) => url.set({ sort: e.target.value })} data-testid="runs-sort">
            <option value="created">Newest first</option>
            <option value="updated">Recently updated</option>
          </Select>
        </Field>
        <Field label="Goal contains" htmlFor="runs-text" className="min-w-48 flex-1">
          <Input
            id="runs-text"
            value={text}
            maxLength={200}
            placeholder="Search goals"
            onChange={(e) => setText(e.target.value)}
            data-testid="runs-filter-text"
          />
        </Field>
        {roleAtLeast(role, 'operator') ? (
          <Link
            href={`${base}/runs/new`}
            data-testid="runs-new"
            className="inline-flex h-8 items-center gap-2 rounded-md bg-accent px-3 text-[13px] font-medium text-accent-foreground shadow-xs hover:bg-accent-hover"
          >
            <Plus aria-hidden className="size-3.5" /> New run
          </Link>
        ) : null}
      </div>
      {graphId || since ? (
        <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="runs-filter-chips">
          {graphId ? (
            <FilterChip testId="runs-filter-graph" onClear={() => url.set({ graph: '' })}>
              Graph: {graphs.data?.find((g) => g.id === graphId)?.name ?? graphId}
            </FilterChip>
          ) : null}
          {since ? (
            <FilterChip testId="runs-filter-since" onClear={() => url.set({ since: '' })}>
              Finished in {SINCE_CHOICES[since]!.label}
            </FilterChip>
          ) : null}
        </div>
      ) : null}
      <InlineError error={runs.error} testId="runs-load-error" />
      <div className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-border bg-surface shadow-xs">
        <RunsTable
          base={base}
          rows={rows}
          loading={runs.isPending}
          hasNextPage={runs.hasNextPage}
          fetchingNextPage={runs.isFetchingNextPage}
          fetchNextPage={() => void runs.fetchNextPage()}
        />
      </div>
    </div>
  );
}

/** A filter set from elsewhere (a link), with a button that removes it. */
function FilterChip({ children, onClear, testId }: { children: ReactNode; onClear: () => void; testId: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-border bg-surface-2 py-0.5 pl-2.5 pr-1 text-foreground" data-testid={testId}>
      {children}
      <button type="button" onClick={onClear} aria-label="Remove this filter" className="rounded-full p-0.5 text-muted hover:bg-surface hover:text-foreground">
        <X aria-hidden className="size-3" />
      </button>
    </span>
  );
}
