'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * "Restore files to here": puts the branch's workspace, or only `paths`, back as it was at event
 * `atEvent`, after a confirmation. The server records the request (and its audit row); the worker
 * applies it at the branch's next step boundary as a new event, so nothing later is lost: every
 * earlier state stays readable at its own event. A finished branch finishes again as it was.
 */
export function RestoreDialog({
  teamId,
  runId,
  sessionId,
  atEvent,
  paths,
  onClose,
}: {
  teamId: string;
  runId: string;
  sessionId: string;
  atEvent: number;
  /** Files or directories to restore; absent: the whole workspace. */
  paths?: string[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const restore = useMutation(
    trpc.sessions.restore.mutationOptions({
      onSuccess: () => {
        // The branch is live again until the worker has applied it: the tree and the files poll until then.
        void queryClient.invalidateQueries(trpc.sessions.tree.queryFilter({ teamId, runId }));
        void queryClient.invalidateQueries(trpc.sessions.files.queryFilter());
        void queryClient.invalidateQueries(trpc.sessions.changes.queryFilter({ teamId, sessionId }));
        onClose();
      },
    }),
  );
  const what = paths ? paths.join(', ') : 'the whole workspace';

  return (
    <Dialog
      testId="restore-dialog"
      onClose={onClose}
      title={
        <>
          <RotateCcw aria-hidden className="size-4" /> Restore {paths ? 'files' : 'the workspace'} to event #{atEvent}
        </>
      }
      description={
        paths
          ? `${what} will be put back as ${paths.length === 1 ? 'it was' : 'they were'} at event #${atEvent}; a path that did not exist then is removed. Nothing else changes.`
          : `The branch’s files will be put back exactly as they were at event #${atEvent}: files changed since are restored, files added since are removed.`
      }
    >
      <p className="text-xs text-muted">
        The restore is recorded as a new event and in the audit log. Nothing is lost: the current files stay readable at their own events. A running branch
        applies it at its next step; a finished one finishes again with the same outcome, without calling the model.
      </p>
      <InlineError error={restore.error} testId="restore-error" />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={restore.isPending}
          onClick={() => restore.mutate({ teamId, sessionId, atEvent, ...(paths ? { paths } : {}) })}
          data-testid="restore-submit"
        >
          Restore
        </Button>
      </div>
    </Dialog>
  );
}
