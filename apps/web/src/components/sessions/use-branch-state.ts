'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';

/**
 * What the run page shares between the branch tree and the one timeline: the picked branch (it
 * drives the timeline), the event a fork is being made from, and the event whose files are open.
 * `?session=ID` picks a branch on load (the CLI's fork prints it).
 */
export interface BranchState {
  /** The picked branch; null: the run's main line. */
  picked: string | null;
  pick: (sessionId: string | null) => void;
  forkAt: number | null;
  forkFrom: (seq: number | null) => void;
  filesAt: number | null;
  /** The branch's files at `seq` (null: its latest); opens them. */
  showFiles: (seq: number | null) => void;
  filesOpen: boolean;
  setFilesOpen: (open: boolean) => void;
}

export function useBranchState(): BranchState {
  const [picked, setPicked] = useState<string | null>(null);
  // Read once on mount (not useSearchParams: no Suspense boundary needed around the run page).
  useEffect(() => setPicked(new URLSearchParams(window.location.search).get('session')), []);
  const [forkAt, forkFrom] = useState<number | null>(null);
  const [filesAt, setFilesAt] = useState<number | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const pick = useCallback((sessionId: string | null) => {
    // Another branch starts with its files closed, at its latest event.
    setPicked(sessionId);
    setFilesAt(null);
    setFilesOpen(false);
  }, []);
  const showFiles = useCallback((seq: number | null) => {
    setFilesAt(seq);
    setFilesOpen(true);
  }, []);
  return useMemo(
    () => ({ picked, pick, forkAt, forkFrom, filesAt, showFiles, filesOpen, setFilesOpen }),
    [picked, pick, forkAt, filesAt, showFiles, filesOpen],
  );
}
