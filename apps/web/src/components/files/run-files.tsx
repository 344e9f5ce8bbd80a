'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { InlineError } from '@/components/ui/inline-error';
import { Label, Select } from '@/components/ui/field';
import type { RouterOutputs } from '@/lib/api-types';
import { isFinished } from '@/components/sessions/session-format';
import { RestoreDialog } from '@/components/sessions/restore-dialog';
import { useTRPC } from '@/trpc/client';
import { CallDiff } from './call-diff';
import { FilesPanel } from './files-panel';
import type { FilesUrlState } from './use-files-url';

type Change = RouterOutputs['sessions']['changes']['changes'][number];

/**
 * "write_file notes/plan.md", "shell mkdir build": a call by its tool and the argument that says
 * most; "restore to #4 (src/app.ts)": a restore by the event whose files it put back.
 */
function changeLabel(change: Pick<Change, 'kind' | 'tool' | 'args' | 'restoredFrom' | 'paths'>): string {
  if (change.kind === 'restore') return `restore to #${change.restoredFrom}${change.paths ? ` (${change.paths.join(', ').slice(0, 80)})` : ''}`;
  const args = (change.args ?? {}) as Record<string, unknown>;
  const what = [args.path, args.command, Array.isArray(args.paths) ? args.paths.join(', ') : undefined].find((v) => typeof v === 'string' && v !== '');
  return `${change.tool ?? 'a tool call'}${what ? ` ${String(what).slice(0, 80)}` : ''}`;
}

/**
 * The run page's Files tab: a branch's workspace at any event (the latest by default, a call
 * that changed files picked from the list, or any event number), one file at a time with its
 * syntax, and the diff of the picked call (the commit it made). The branch is `sessionId` (the
 * page's picked branch) or the main line; the event and path live in the URL through `onChange`.
 */
export function RunFiles({
  teamId,
  runId,
  sessionId,
  canOperate = false,
  state,
  onChange,
}: {
  teamId: string;
  runId: string;
  sessionId: string | null;
  /** Whether a shown file or folder can be restored to the picked event (operator and up). */
  canOperate?: boolean;
  state: FilesUrlState;
  onChange: (changes: Partial<FilesUrlState>) => void;
}) {
  const trpc = useTRPC();
  const selectId = useId();
  const tree = useQuery(trpc.sessions.tree.queryOptions({ teamId, runId }));
  const sessions = tree.data?.sessions ?? [];
  const session = sessions.find((s) => s.id === sessionId) ?? sessions.find((s) => s.isMain) ?? null;
  const live = session ? !isFinished(session.status) : false;
  const changes = useQuery({
    ...trpc.sessions.changes.queryOptions({ teamId, sessionId: session?.id ?? '' }),
    enabled: session !== null,
    refetchInterval: live ? 2000 : false,
  });
  const list = changes.data?.changes ?? [];
  const current = state.at === null ? null : (list.find((c) => c.seq === state.at) ?? null);
  const [restoring, setRestoring] = useState<{ path: string; atEvent: number } | null>(null);

  if (!session) {
    return (
      <div className="px-8 py-6 text-xs text-muted" data-testid="run-files">
        <InlineError error={tree.error} testId="run-files-error" />
        {tree.isPending ? 'Loading the branches…' : null}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3 px-6 py-3" data-testid="run-files" data-session-id={session.id}>
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={selectId}>Calls that changed files</Label>
        <Select
          id={selectId}
          containerClassName="w-auto min-w-64"
          value={current ? String(current.seq) : ''}
          onChange={(e) => onChange({ at: e.target.value === '' ? null : Number(e.target.value) })}
          data-testid="run-files-change"
        >
          <option value="">{current || state.at === null ? 'Latest' : `Event #${state.at}`}</option>
          {list.map((c) => (
            <option key={c.seq} value={c.seq}>
              #{c.seq} {changeLabel(c)}
            </option>
          ))}
        </Select>
        <span className="text-xs text-muted" data-testid="run-files-change-count" data-count={list.length}>
          {changes.isPending ? 'Loading…' : `${list.length} call${list.length === 1 ? '' : 's'}${changes.data?.more ? ` (+${changes.data.more} more)` : ''}`}
        </span>
        <InlineError error={changes.error} testId="run-files-changes-error" />
      </div>
      <div className="grid min-h-0 gap-3 lg:grid-cols-2">
        <div className="min-w-0 rounded border border-border">
          <FilesPanel
            key={session.id}
            teamId={teamId}
            sessionId={session.id}
            atEvent={state.at}
            live={live}
            onPickEvent={(at) => onChange({ at })}
            path={state.path}
            onPath={(path) => onChange({ path })}
            {...(canOperate ? { onRestore: (path: string, atEvent: number) => setRestoring({ path, atEvent }) } : {})}
          />
        </div>
        <section className="min-w-0 rounded border border-border p-3" aria-label="Diff of the call" data-testid="run-files-diff">
          {current ? (
            <>
              <h3 className="mb-2 text-xs font-semibold">
                Diff of call #{current.seq}: <span className="font-mono font-normal">{changeLabel(current)}</span>
              </h3>
              <CallDiff teamId={teamId} sessionId={session.id} atEvent={current.seq} />
            </>
          ) : (
            <p className="text-xs text-muted" data-testid="run-files-diff-none">
              Pick a call that changed files to see its diff: what it changed, file by file.
            </p>
          )}
        </section>
      </div>
      {restoring ? (
        <RestoreDialog
          teamId={teamId}
          runId={runId}
          sessionId={session.id}
          atEvent={restoring.atEvent}
          paths={[restoring.path]}
          onClose={() => setRestoring(null)}
        />
      ) : null}
    </div>
  );
}
