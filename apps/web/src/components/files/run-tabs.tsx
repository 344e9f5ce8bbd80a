'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { RunFiles } from './run-files';
import type { FilesUrlState } from './use-files-url';

const TABS = [
  { id: 'timeline', label: 'Timeline' },
  { id: 'files', label: 'Files' },
] as const;

/**
 * The run page's body: the timeline, or the Files tab (the workspace at any event and each
 * call's diff). The tab, event and path are in the URL, so a view can be shared and reloaded.
 * The timeline stays mounted while Files is shown, so its stream and scroll position are kept.
 * `timeline` is the page's timeline element, laid out as a flex child (it takes the height).
 */
export function RunTabs({
  teamId,
  runId,
  sessionId = null,
  canOperate = false,
  timeline,
  state,
  setState,
}: {
  teamId: string;
  runId: string;
  /** The tab, event and path, as kept in the URL by the page (`useFilesUrl`), whose keys switch tabs too. */
  state: FilesUrlState;
  setState: (changes: Partial<FilesUrlState>) => void;
  /** The branch whose files are shown (the run page's picked branch); null: the main line. */
  sessionId?: string | null;
  /** Whether the viewer may restore files (operator and up). */
  canOperate?: boolean;
  timeline: ReactNode;
}) {
  const refs = useRef<Record<FilesUrlState['tab'], HTMLButtonElement | null>>({ timeline: null, files: null });

  // The WAI-ARIA tabs pattern: arrow keys move between tabs (and select them).
  function onKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = state.tab === 'timeline' ? 'files' : 'timeline';
    setState({ tab: next });
    refs.current[next]?.focus();
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div role="tablist" aria-label="Run" className="flex shrink-0 gap-4 border-b border-border px-8">
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`run-tab-${t.id}`}
            aria-selected={state.tab === t.id}
            aria-controls={`run-panel-${t.id}`}
            tabIndex={state.tab === t.id ? 0 : -1}
            onClick={() => setState({ tab: t.id })}
            onKeyDown={onKey}
            className={cn(
              '-mb-px border-b-2 px-0.5 py-1.5 text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring/30 focus-visible:outline-none',
              state.tab === t.id ? 'border-accent text-foreground' : 'border-transparent text-muted hover:text-foreground',
            )}
            data-testid={`run-tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id="run-panel-timeline"
        aria-labelledby="run-tab-timeline"
        hidden={state.tab !== 'timeline'}
        className="flex min-h-0 flex-1 flex-col"
      >
        {timeline}
      </div>
      {state.tab === 'files' ? (
        <div role="tabpanel" id="run-panel-files" aria-labelledby="run-tab-files" className="min-h-0 flex-1 overflow-y-auto">
          <RunFiles teamId={teamId} runId={runId} sessionId={sessionId} canOperate={canOperate} state={state} onChange={setState} />
        </div>
      ) : null}
    </div>
  );
}
