'use client';

import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { FilesPanel } from '@/components/files/files-panel';
import { cn } from '@/lib/cn';
import { BranchActions } from './branch-actions';
import { BranchEvents } from './branch-events';
import { isFinished, type SessionNode } from './session-format';

const TABS = [
  { id: 'events', label: 'Events' },
  { id: 'files', label: 'Files' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/**
 * The selected branch: its actions, then its event log or its workspace files. "Files at #N" on
 * an event opens the Files tab at that event, so the two tabs share the event being looked at.
 * Keyed by the branch in the parent, so a newly selected branch starts at its latest files.
 */
export function BranchDetail({ teamId, node, canOperate, onChanged, onFork, onReplay }: {
  teamId: string;
  node: SessionNode;
  canOperate: boolean;
  onChanged: () => void;
  onFork: (atEvent: number) => void;
  onReplay: () => void;
}) {
  const baseId = useId();
  const [tab, setTab] = useState<Tab>('events');
  const [filesAt, setFilesAt] = useState<number | null>(null);
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ events: null, files: null });
  const live = !isFinished(node.status);

  // The WAI-ARIA tabs pattern: arrow keys move between tabs (and select them).
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = TABS[(TABS.findIndex((t) => t.id === tab) + 1) % TABS.length]!.id;
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="rounded border border-border" data-testid="branch-detail" data-session-id={node.id}>
      {canOperate ? <BranchActions teamId={teamId} node={node} onChanged={onChanged} onReplay={onReplay} /> : null}
      <div role="tablist" aria-label="Branch detail" className="flex gap-4 border-b border-border px-3">
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={onTabKey}
            className={cn(
              '-mb-px border-b-2 px-0.5 py-1.5 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30',
              tab === t.id ? 'border-accent text-foreground' : 'border-transparent text-muted hover:text-foreground',
            )}
            data-testid={`branch-tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'events' ? (
          <BranchEvents
            teamId={teamId}
            sessionId={node.id}
            live={live}
            canOperate={canOperate}
            onFork={onFork}
            onShowFiles={(seq) => {
              setFilesAt(seq);
              setTab('files');
            }}
          />
        ) : (
          <FilesPanel teamId={teamId} sessionId={node.id} atEvent={filesAt} live={live} onPickEvent={setFilesAt} />
        )}
      </div>
    </div>
  );
}
