'use client';

import { useCallback, useEffect, useState } from 'react';

/** The run page's tab and what its Files tab shows, as kept in the URL (`?tab=files&at=N&path=…`). */
export interface FilesUrlState {
  tab: 'timeline' | 'files';
  /** The event (seq) the files are shown at; null: the latest. */
  at: number | null;
  /** The workspace path open in the Files tab ('' : the root). */
  path: string;
}

const DEFAULTS: FilesUrlState = { tab: 'timeline', at: null, path: '' };

/** Reads the state from a query string; anything malformed is its default. */
export function parseFilesUrl(search: string): FilesUrlState {
  const params = new URLSearchParams(search);
  const at = Number(params.get('at'));
  return {
    tab: params.get('tab') === 'files' ? 'files' : 'timeline',
    at: params.has('at') && Number.isInteger(at) && at >= 1 ? at : null,
    path: params.get('path') ?? '',
  };
}

/** The query string with the state written in (defaults leave it), other parameters kept. */
export function writeFilesUrl(search: string, state: FilesUrlState): string {
  const params = new URLSearchParams(search);
  const values = { tab: state.tab === 'files' ? 'files' : '', at: state.at === null ? '' : String(state.at), path: state.path };
  for (const [key, value] of Object.entries(values)) {
    if (value === '') params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The state, read from the URL after mount (as the session panel reads `?session=`, so the run
 * page needs no Suspense boundary) and written back with `history.replaceState`, which Next's
 * router follows: a shared or reloaded link opens the same tab, event and file, and switching
 * does not fill the back button.
 */
export function useFilesUrl(): [FilesUrlState, (changes: Partial<FilesUrlState>) => void] {
  const [state, setState] = useState<FilesUrlState>(DEFAULTS);
  useEffect(() => setState(parseFilesUrl(window.location.search)), []);
  const update = useCallback((changes: Partial<FilesUrlState>) => {
    setState((current) => {
      const next = { ...current, ...changes };
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${writeFilesUrl(window.location.search, next)}`);
      return next;
    });
  }, []);
  return [state, update];
}
