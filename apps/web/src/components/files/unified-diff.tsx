'use client';

import { DiffModeEnum, DiffView } from '@git-diff-view/react';
import '@git-diff-view/react/styles/diff-view-pure.css';
import { useMemo } from 'react';
import { useDarkTheme } from '@/lib/use-dark-theme';
import { splitDiff, type DiffFilePart } from './diff-files';
import { languageOf } from './highlight';

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
        <span className="min-w-0 flex-1 truncate" data-testid="diff-file-name">
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
 * A unified git diff (what the workspace store sends for a call, a held effect or two branches),
 * one block per file with what it adds and removes, rendered by @git-diff-view/react in the
 * file's syntax and the dashboard's theme.
 */
export function UnifiedDiff({ diff, testId, className }: { diff: string; testId?: string; className?: string }) {
  const dark = useDarkTheme();
  const parts = useMemo(() => splitDiff(diff), [diff]);
  return (
    <div className={className ?? 'flex flex-col gap-2'} data-testid={testId} data-files={parts.length}>
      {parts.map((part) => (
        <FileDiff key={part.path} part={part} dark={dark} />
      ))}
    </div>
  );
}
