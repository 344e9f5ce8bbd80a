'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';

/**
 * What the run page shares between the branch tree and the one timeline: the picked branch (it
 * drives the timeline), the two branches compared, the event a fork is being made from, and the
 * event whose files are open. The picked branch and the compared pair are in the URL
 * (`?session=ID&compare=A,B`; the CLI's fork prints the first), read on load and written back
 * with `history.replaceState`, so a view can be shared and reloaded.
 */
export interface BranchState {
  /** The picked branch; null: the run's main line. */
  picked: string | null;
  pick: (sessionId: string | null) => void;
  /** At most two branches, compared side by side. */
  compare: string[];
  setCompare: (update: (current: string[]) => string[]) => void;
  forkAt: number | null;
  forkFrom: (seq: number | null) => void;
  /** The event whose files the picked branch is being restored to (the confirmation is open). */
  restoreAt: number | null;
  restoreTo: (seq: number | null) => void;
  filesAt: number | null;
  /** The branch's files at `seq` (null: its latest); opens them. */
  showFiles: (seq: number | null) => void;
  filesOpen: boolean;
  setFilesOpen: (open: boolean) => void;
}

/** Writes the branch parameters into the current URL, keeping the others (the tab, the event, the path). */
function writeBranchUrl(changes: { session?: string | null; compare?: string[] }): void {
  const params = new URLSearchParams(window.location.search);
  if (changes.session !== undefined) {
    if (changes.session) params.set('session', changes.session);
    else params.delete('session');
  }
  if (changes.compare !== undefined) {
    if (changes.compare.length > 0) params.set('compare', changes.compare.join(','));
    else params.delete('compare');
  }
  const query = params.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}`);
}

/** Branch ids from `?compare=`: at most two, each shaped like an id (anything else is dropped). */
export function parseCompare(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .filter((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id))
    .slice(0, 2);
}

export function useBranchState(): BranchState {
  const [picked, setPicked] = useState<string | null>(null);
  const [compare, setCompareState] = useState<string[]>([]);
  // Read once on mount (not useSearchParams: no Suspense boundary needed around the run page).
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    setPicked(params.get('session'));
    setCompareState(parseCompare(params.get('compare')));
  }, []);
  const [forkAt, forkFrom] = useState<number | null>(null);
  const [restoreAt, restoreTo] = useState<number | null>(null);
  const [filesAt, setFilesAt] = useState<number | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const pick = useCallback((sessionId: string | null) => {
    // Another branch starts with its files closed, at its latest event.
    setPicked(sessionId);
    setFilesAt(null);
    setFilesOpen(false);
    writeBranchUrl({ session: sessionId });
  }, []);
  const setCompare = useCallback((update: (current: string[]) => string[]) => {
    setCompareState((current) => {
      const next = update(current).slice(-2);
      writeBranchUrl({ compare: next });
      return next;
    });
  }, []);
  const showFiles = useCallback((seq: number | null) => {
    setFilesAt(seq);
    setFilesOpen(true);
  }, []);
  return useMemo(
    () => ({ picked, pick, compare, setCompare, forkAt, forkFrom, restoreAt, restoreTo, filesAt, showFiles, filesOpen, setFilesOpen }),
    [picked, pick, compare, setCompare, forkAt, restoreAt, filesAt, showFiles, filesOpen],
  );
}
