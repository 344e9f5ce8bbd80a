'use client';

import { DiffModeEnum, DiffView } from '@git-diff-view/react';
import '@git-diff-view/react/styles/diff-view-pure.css';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { splitDiff, type DiffFilePart } from './diff-files';
import { languageOf } from './highlight';
import { useDarkTheme } from '@/lib/use-dark-theme';

/** Lines a part adds and removes (its `+`/`-` lines, not the `+++`/`---` headers). */
function counts(part: DiffFilePart): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of part.text.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  return { added, removed };
}

function FileDiff({ part, dark }: { part: DiffFilePart; dark: boolean }) {
  const { added, removed } = counts(part);
  const lang = languageOf(part.path) ?? 'plaintext';
  return (
    <section className="rounded border border-border" data-testid="call-diff-file" data-path={part.path} data-added={added} data-removed={removed}>
      <h4 className="flex items-center gap-2 border-b border-border bg-surface-2 px-2 py-1 font-mono text-xs">
        <span className="min-w-0 flex-1 truncate">
          {part.oldPath === null ? 'added ' : part.newPath === null ? 'deleted ' : ''}
          {part.path}
        </span>
        <span className="text-success tabular-nums">+{added}</span>
        <span className="text-danger tabular-nums">−{removed}</span>
      </h4>
      {part.hasHunks ? (
        <div className="overflow-x-auto text-xs" data-testid="call-diff-lines">
          <DiffView
            data={{ oldFile: { fileName: part.oldPath, fileLang: lang }, newFile: { fileName: part.newPath, fileLang: lang }, hunks: [part.text] }}
            diffViewMode={DiffModeEnum.Unified}
            diffViewTheme={dark ? 'dark' : 'light'}
            diffViewHighlight
            diffViewFontSize={12}
          />
        </div>
      ) : (
        <p className="px-2 py-1.5 text-xs text-muted">No lines to show (a binary file or a mode change).</p>
      )}
    </section>
  );
}

/**
 * What one tool call changed (`sessions.callDiff`: from the commit before its `tool.finished`
 * at `atEvent` to the commit it recorded), one block per file, rendered by @git-diff-view/react
 * with the file's syntax. Without readable workspaces the server's reason is shown instead.
 */
export function CallDiff({ teamId, sessionId, atEvent }: { teamId: string; sessionId: string; atEvent: number }) {
  const trpc = useTRPC();
  const dark = useDarkTheme();
  const query = useQuery(trpc.sessions.callDiff.queryOptions({ teamId, sessionId, atEvent }));
  const parts = useMemo(() => splitDiff(query.data?.diff ?? ''), [query.data?.diff]);
  const data = query.data;
  return (
    <div className="flex flex-col gap-2" data-testid="call-diff" data-at-event={atEvent} data-files={data ? parts.length : ''} aria-busy={query.isFetching}>
      <InlineError error={query.error} testId="call-diff-error" />
      {query.isPending ? <p className="text-xs text-muted">Loading the diff…</p> : null}
      {data?.reason ? <p className="text-xs text-muted" data-testid="call-diff-reason">No diff: {data.reason}.</p> : null}
      {data && data.diff !== null && parts.length === 0 ? <p className="text-xs text-muted" data-testid="call-diff-empty">This call left every file as it was.</p> : null}
      {data?.truncated ? <p className="text-xs text-warning">The diff is cut: it is larger than the server sends.</p> : null}
      {parts.map((part) => (
        <FileDiff key={part.path} part={part} dark={dark} />
      ))}
    </div>
  );
}
