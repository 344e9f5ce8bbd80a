'use client';

import { useQuery } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { errorMessage } from '@/lib/error-message';
import { useTRPC } from '@/trpc/client';
import { LazyFileViewer as FileViewer } from './lazy';
import { FilesBreadcrumbs } from './files-breadcrumbs';
import { errorCode } from './files-format';
import { FilesListing } from './files-listing';
import { FilesToolbar } from './files-toolbar';

/**
 * A branch's workspace at one event, read from the workspace store (never a worker's disk): the
 * tree with breadcrumbs, one file at a time, and the tarball of that state. `atEvent` null means
 * the latest event, re-read while the branch is live. A path that is not there at the event (it
 * came later, or was deleted) is said in words with a way back to the root, not thrown; other
 * failures (removed by retention, an event outside the log) show the server's reason. The path
 * is the panel's own unless `path` and `onPath` are given (the run page keeps it in its URL).
 * With `onRestore` (operators), a file or folder shown at a picked event can be restored to it.
 */
export function FilesPanel({
  teamId,
  sessionId,
  atEvent,
  live,
  onPickEvent,
  path: shownPath,
  onPath,
  onRestore,
}: {
  teamId: string;
  sessionId: string;
  atEvent: number | null;
  live: boolean;
  onPickEvent: (atEvent: number | null) => void;
  path?: string;
  onPath?: (path: string) => void;
  /** Asks to put `path` back as it was at `atEvent` (the caller confirms first). */
  onRestore?: (path: string, atEvent: number) => void;
}) {
  const trpc = useTRPC();
  const [ownPath, setOwnPath] = useState('');
  const path = shownPath ?? ownPath;
  const setPath = onPath ?? setOwnPath;
  const files = useQuery({
    ...trpc.sessions.files.queryOptions({ teamId, sessionId, path, ...(atEvent === null ? {} : { atEvent }) }),
    refetchInterval: live && atEvent === null ? 2000 : false,
  });
  const data = files.data;
  // A path missing at this event is ordinary (files come and go); any other NOT_FOUND, such as
  // files removed by retention, and every other error, is shown with the server's own reason.
  const notFound = path !== '' && errorCode(files.error) === 'NOT_FOUND' && !/retention/i.test(errorMessage(files.error));
  const node = data?.node;

  return (
    <div className="flex flex-col" data-testid="files-panel" data-session-id={sessionId} data-path={path} aria-busy={files.isFetching}>
      <FilesToolbar sessionId={sessionId} requested={atEvent} shown={data?.atEvent ?? atEvent} commit={data?.commit ?? null} onPick={onPickEvent} />
      <div className="flex items-center gap-2 border-t border-border px-3 py-1.5">
        <FilesBreadcrumbs path={path} onOpen={setPath} />
        {onRestore && atEvent !== null && path !== '' && (node || notFound) ? (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={() => onRestore(path, atEvent)} data-testid="files-restore">
            <RotateCcw aria-hidden className="size-3" /> Restore {node?.kind === 'dir' ? 'this folder' : 'this file'} to #{atEvent}
          </Button>
        ) : null}
      </div>
      {notFound ? (
        <div className="flex items-center gap-2 px-3 py-2 text-xs" data-testid="files-not-found">
          <span>
            <span className="font-mono">{path || '/'}</span> does not exist at this event
            {atEvent === null ? '' : ` (#${atEvent})`}.
          </span>
          {path !== '' ? (
            <Button size="sm" variant="ghost" onClick={() => setPath('')}>
              Back to the workspace root
            </Button>
          ) : null}
        </div>
      ) : (
        <InlineError error={files.error} testId="files-error" className="mx-3 my-2" />
      )}
      {files.isPending ? <p className="px-3 py-2 text-xs text-muted">Loading files…</p> : null}
      {node?.kind === 'dir' && node.entries.length === 0 ? (
        <p className="px-3 py-3 text-center text-xs text-muted" data-testid="files-empty">
          {path === '' ? 'The workspace is empty at this event: no file had been written yet.' : 'This folder is empty.'}
        </p>
      ) : null}
      {node?.kind === 'dir' && node.entries.length > 0 ? <FilesListing entries={node.entries} onOpen={setPath} /> : null}
      {node?.kind === 'file' ? <FileViewer file={node} /> : null}
    </div>
  );
}
