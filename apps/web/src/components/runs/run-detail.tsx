'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { useTeamActivity } from '@/components/live/team-activity';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { InlineError } from '@/components/ui/inline-error';
import type { RunDetail as Run } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { formatCost, formatDuration, formatTokens, isTerminal, runDuration, STATUS_TONE } from '@/lib/run-format';
import { useNow } from '@/lib/use-now';
import { useTRPC } from '@/trpc/client';
import { RunTabs } from '@/components/files/run-tabs';
import { useFilesUrl } from '@/components/files/use-files-url';
import { usePageShortcuts, type PageShortcut } from '@/lib/shortcuts';
import { useBranchLine } from '@/components/sessions/branch-line';
import { SessionsPanel } from '@/components/sessions/sessions-panel';
import { useBranchState } from '@/components/sessions/use-branch-state';
import { RunHandback } from '@/components/workspace/run-handback';
import { RunSeed } from '@/components/workspace/run-seed';
import { CancelRun, MessageBox, RaiseBudget } from './run-actions';
import { RunTimeline, type TimelineControls } from './run-timeline';
import { useRunEvents } from './use-run-events';

const limit = (value: number | null, format: (n: number) => string) => (value === null ? '' : ` / ${format(value)}`);

function Facts({ run, now }: { run: Run; now: number | null }) {
  const fact = (label: string, value: React.ReactNode, testId?: string) => (
    <div className="flex min-w-0 flex-col">
      <dt className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="truncate tabular-nums" data-testid={testId} title={typeof value === 'string' ? value : undefined}>
        {value}
      </dd>
    </div>
  );
  const ledger = run.ledger;
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4 lg:grid-cols-7">
      {fact('Agent', run.agent?.name ?? '—')}
      {fact('Creator', run.createdBy?.email ?? 'system')}
      {fact('Created', formatDateTime(run.createdAt))}
      {fact('Duration', now === null ? '' : formatDuration(runDuration(run, now)), 'run-duration')}
      {fact('Cost', `${formatCost(run.spentCostMicros)}${limit(ledger?.limitCostMicros ?? null, formatCost)}`, 'run-cost')}
      {fact('Tokens', `${formatTokens(run.spentTokens)}${limit(ledger?.limitTokens ?? null, formatTokens)}`)}
      {fact('Tool calls', `${run.toolCalls}${limit(ledger?.limitCalls ?? null, String)}`)}
    </dl>
  );
}

/** One run, live: header facts, its branches, the one event timeline (of the picked branch), cancel, messages, budget. */
export function RunDetail({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team, role } = useTeamScope();
  const run = useQuery(trpc.runs.get.queryOptions({ teamId: team.id, runId }));
  const now = useNow(1000);

  // Facts (status, cost) are re-read when something other than a streamed delta happens, at most once a second.
  const refreshAt = useRef(0);
  const refresh = () => {
    if (refreshAt.current > Date.now()) return;
    refreshAt.current = Date.now() + 1000;
    setTimeout(() => void queryClient.invalidateQueries(trpc.runs.get.queryFilter({ teamId: team.id, runId })), 1000);
  };
  const branch = useBranchState();
  const line = useBranchLine(team.id, runId, branch.picked);
  const stream = useRunEvents({
    teamId: team.id,
    runId,
    lastEventNo: run.data?.lastEventNo,
    line,
    onEvent: (event) => {
      if (event.type !== 'model.delta') refresh();
    },
  });
  useTeamActivity((activity) => {
    if (activity.kind === 'run.status' && activity.runId === runId) refresh();
  });

  const data = run.data;
  // The branch the timeline shows: the picked one, else the main line.
  const shownSession = branch.picked ?? data?.mainSessionId ?? null;
  const canOperate = roleAtLeast(role, 'operator');
  const [tabs, setTabs] = useFilesUrl();
  const timeline = useRef<TimelineControls>(null);
  // What the last key could not do, said where the keyboard user looks and to screen readers.
  const [keyNotice, setKeyNotice] = useState<string | null>(null);
  usePageShortcuts('Run', runShortcuts({ timeline, branch, canOperate, setTabs, notify: setKeyNotice }));

  return (
    <div className="flex h-[calc(100vh-1px)] flex-col">
      <header className="border-b border-border bg-surface/60 px-8 pt-5 pb-4">
        <p className="text-xs text-muted">
          <Link href={`/t/${team.slug}/runs`} className="hover:text-foreground">
            Runs
          </Link>{' '}
          / <span className="font-mono">{runId}</span>
        </p>
        <div className="mt-1 flex items-start justify-between gap-4">
          <h1 className="line-clamp-2 text-lg font-semibold tracking-tight" data-testid="page-title" title={data?.goal}>
            {data?.goal ?? 'Run'}
          </h1>
          {data ? (
            <div className="flex shrink-0 items-center gap-2">
              <Badge tone={STATUS_TONE[data.status]} data-testid="run-status" data-status={data.status}>
                {data.status}
                {data.status === 'waiting' && data.waitReason ? ` · ${data.waitReason}` : ''}
              </Badge>
              {canOperate && !isTerminal(data.status) ? <CancelRun teamId={team.id} runId={runId} requested={data.cancelRequestedAt !== null} /> : null}
            </div>
          ) : null}
        </div>
        <InlineError error={run.error} testId="run-load-error" className="mt-2" />
        {data ? (
          <div className="mt-3 flex flex-col gap-2">
            <Facts run={data} now={now} />
            {/* Where the run's files came from, and what the picked branch handed back. */}
            {shownSession ? <RunSeed teamId={team.id} teamSlug={team.slug} runId={runId} sessionId={shownSession} /> : null}
            <RunHandback items={stream.items} />
            {data.error ? (
              <p className="text-danger" data-testid="run-error">
                {data.error}
              </p>
            ) : null}
            {data.graphId ? (
              <Link href={`/t/${team.slug}/graphs/runs/${runId}`} className="text-sm text-accent hover:underline" data-testid="run-live-graph">
                Live graph: node states, delegations and edge budgets →
              </Link>
            ) : null}
            {roleAtLeast(role, 'approver') && data.status === 'waiting' && data.waitReason === 'budget' ? <RaiseBudget teamId={team.id} runId={runId} /> : null}
          </div>
        ) : null}
      </header>
      {/* Session tree: branches, fork points, compare, promote, resume; the picked one drives the timeline. */}
      <SessionsPanel teamId={team.id} runId={runId} canOperate={canOperate} branch={branch} />
      <RunTabs
        teamId={team.id}
        runId={runId}
        sessionId={branch.picked}
        canOperate={canOperate}
        state={tabs}
        setState={setTabs}
        timeline={
          <RunTimeline
            controls={timeline}
            items={stream.items}
            hasEarlier={stream.firstEventNo > 1}
            loadingEarlier={stream.loadingEarlier}
            onLoadEarlier={() => void stream.loadEarlier()}
            onFork={canOperate ? branch.forkFrom : undefined}
            onShowFiles={branch.showFiles}
            onRestore={canOperate ? branch.restoreTo : undefined}
            empty={
              <p className="px-8 py-8 text-center text-muted" data-testid="run-timeline-empty">
                {stream.state === 'closed' ? 'The event stream is closed.' : 'Waiting for the first event… (a worker picks queued runs up)'}
              </p>
            }
          />
        }
      />
      <footer className="shrink-0 bg-surface">
        {canOperate && data && !data.cancelRequestedAt ? <MessageBox teamId={team.id} runId={runId} busyPolicy={data.busyPolicy} /> : null}
        <p
          className="flex gap-4 border-t border-border px-4 py-1.5 text-[11px] text-muted tabular-nums"
          data-testid="run-stream-stats"
          data-state={stream.state}
          data-received={stream.stats.received}
          data-last-event-no={stream.stats.lastEventNo}
          data-gaps={stream.stats.gaps}
          data-duplicates={stream.stats.duplicates}
        >
          <span>stream: {stream.state}</span>
          <span>events: {stream.stats.received}</span>
          <span>last #{stream.stats.lastEventNo}</span>
          {data?.pendingMessages ? <span>{data.pendingMessages} message(s) waiting for the agent</span> : null}
          <span role="status" className="ml-auto text-foreground" data-testid="run-key-notice">
            {keyNotice}
          </span>
        </p>
      </footer>
    </div>
  );
}

/**
 * The run page's keys (listed by `?`): move through the timeline, fork or open the files at the
 * focused event, switch tabs, jump to the latest or earlier events, reach the branches and the
 * message box. Each says why when it cannot act.
 */
function runShortcuts({
  timeline,
  branch,
  canOperate,
  setTabs,
  notify,
}: {
  timeline: React.RefObject<TimelineControls | null>;
  branch: ReturnType<typeof useBranchState>;
  canOperate: boolean;
  setTabs: ReturnType<typeof useFilesUrl>[1];
  notify: (text: string | null) => void;
}): PageShortcut[] {
  const onTimeline = (act: (controls: TimelineControls) => void) => () => {
    setTabs({ tab: 'timeline' });
    notify(null);
    // The timeline panel is shown again before it is moved through.
    requestAnimationFrame(() => {
      if (timeline.current) act(timeline.current);
    });
  };
  const focused = (what: string) => {
    const item = timeline.current?.focusedItem() ?? null;
    if (!item) notify(`Focus an event first (j / k) to ${what}`);
    return item;
  };
  const focus = (selector: string, missing: string) => () => {
    const element = document.querySelector<HTMLElement>(selector);
    if (element) {
      notify(null);
      element.focus();
    } else notify(missing);
  };
  return [
    { key: 'j', label: 'Next event', run: onTimeline((c) => c.move(1)) },
    { key: 'k', label: 'Previous event', run: onTimeline((c) => c.move(-1)) },
    {
      key: 'f',
      label: 'Fork from the focused event',
      run: () => {
        if (!canOperate) return notify('Forking needs the operator role');
        const item = focused('fork from it');
        if (!item) return;
        if (item.forkBlocker) return notify(`Cannot fork at event #${item.seq}: ${item.forkBlocker}`);
        notify(null);
        branch.forkFrom(item.seq);
      },
    },
    {
      key: 'o',
      label: 'Open the files at the focused event',
      run: () => {
        const item = focused('open its files');
        if (!item) return;
        notify(null);
        setTabs({ tab: 'files', at: item.seq });
      },
    },
    {
      key: '1',
      label: 'Timeline tab',
      run: () => {
        notify(null);
        setTabs({ tab: 'timeline' });
        requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="run-timeline"]')?.focus());
      },
    },
    {
      key: '2',
      label: 'Files tab',
      run: () => {
        notify(null);
        setTabs({ tab: 'files' });
      },
    },
    { key: 'l', label: 'Latest event (and follow new ones)', run: onTimeline((c) => c.latest()) },
    { key: 'e', label: 'Load earlier events', run: onTimeline((c) => c.earlier()) },
    {
      key: 'b',
      label: 'Go to the branches',
      run: focus('[data-testid="session-select"][aria-current="true"], [data-testid="session-select"]', 'The branch list is hidden (Show it first)'),
    },
    ...(canOperate
      ? [{ key: 'm', label: 'Write a message to the run', run: focus('[data-testid="run-message-input"]', 'This run takes no more messages') }]
      : []),
  ];
}
