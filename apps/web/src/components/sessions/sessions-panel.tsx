'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { BranchCompare } from './branch-compare';
import { BranchDetail } from './branch-detail';
import { ForkDialog } from './fork-dialog';
import { ReplayDialog } from './replay-dialog';
import { RestoreDialog } from './restore-dialog';
import { isFinished } from './session-format';
import { SessionTreeView } from './session-tree';
import type { BranchState } from './use-branch-state';

/**
 * The run's session tree and what can be done with it: pick a branch (the run page's one timeline
 * then shows its line, where every event has "Fork from here"), promote or resume it, see its
 * files, or tick two branches to compare them (where they diverge and the file diff). Replay opens
 * the new replay branch beside its original in the compare. The tree lists branches, not events.
 */
export function SessionsPanel({ teamId, runId, canOperate, branch }: { teamId: string; runId: string; canOperate: boolean; branch: BranchState }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const treeOptions = trpc.sessions.tree.queryOptions({ teamId, runId });
  const tree = useQuery({
    ...treeOptions,
    refetchInterval: (query) => (query.state.data?.sessions.some((s) => !isFinished(s.status)) ? 1500 : false),
  });
  const { picked, pick: setPicked, forkAt, forkFrom: setForkAt, restoreAt, restoreTo, compare, setCompare } = branch;
  const [replaying, setReplaying] = useState(false);
  const [open, setOpen] = useState(true);
  const sessions = tree.data?.sessions ?? [];
  const selected = sessions.find((s) => s.id === picked) ?? sessions.find((s) => s.isMain) ?? null;
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.sessions.tree.queryFilter({ teamId, runId }));
    void queryClient.invalidateQueries(trpc.runs.get.queryFilter({ teamId, runId }));
  };
  // A pair from a shared link is shown once both are branches of this run.
  const pair = compare.filter((id) => sessions.some((s) => s.id === id));
  const toggleCompare = (id: string) => setCompare((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list.slice(-1), id]));

  return (
    <section className="border-b border-border" data-testid="sessions-panel">
      <div className="flex items-center justify-between px-8 py-2">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">
          Branches <span className="tabular-nums">({sessions.length})</span>
        </h2>
        <Button size="sm" variant="ghost" onClick={() => setOpen(!open)} data-testid="sessions-toggle">
          {open ? 'Hide' : 'Show'}
        </Button>
      </div>
      <InlineError error={tree.error} testId="sessions-error" className="px-8" />
      {open ? (
        <div className="flex max-h-[30vh] flex-col gap-2 overflow-y-auto px-6 pb-3">
          <SessionTreeView sessions={sessions} selected={selected?.id ?? null} compare={compare} onSelect={setPicked} onToggleCompare={toggleCompare} />
          {pair.length === 2 ? (
            <div className="rounded border border-border">
              <div className="flex items-center justify-between px-3 py-1">
                <span className="text-xs font-semibold">Compare</span>
                <Button size="sm" variant="ghost" onClick={() => setCompare(() => [])}>
                  Close
                </Button>
              </div>
              <BranchCompare teamId={teamId} a={pair[0]!} b={pair[1]!} />
            </div>
          ) : null}
          {selected ? (
            <BranchDetail
              key={selected.id}
              teamId={teamId}
              node={selected}
              canOperate={canOperate}
              branch={branch}
              onChanged={refresh}
              onReplay={() => setReplaying(true)}
            />
          ) : null}
        </div>
      ) : null}
      {replaying && selected ? (
        <ReplayDialog
          teamId={teamId}
          sessionId={selected.id}
          endpointId={selected.endpointId}
          onClose={() => setReplaying(false)}
          onReplayed={(id) => {
            setReplaying(false);
            // The replay beside its original, in the branch compare.
            setCompare(() => [selected.id, id]);
            setPicked(id);
            refresh();
          }}
        />
      ) : null}
      {forkAt !== null && selected ? (
        <ForkDialog
          teamId={teamId}
          sessionId={selected.id}
          atEvent={forkAt}
          onClose={() => setForkAt(null)}
          onForked={(id) => {
            setForkAt(null);
            setPicked(id);
            refresh();
          }}
        />
      ) : null}
      {restoreAt !== null && selected ? (
        <RestoreDialog teamId={teamId} runId={runId} sessionId={selected.id} atEvent={restoreAt} onClose={() => restoreTo(null)} />
      ) : null}
    </section>
  );
}
