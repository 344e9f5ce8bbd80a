'use client';

import { useMutation } from '@tanstack/react-query';
import { GitFork } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * "Fork from here": a new branch whose conversation and workspace files are the branch's at event
 * `atEvent`, optionally starting with a new message. The server checks the point is forkable.
 */
export function ForkDialog({
  teamId,
  sessionId,
  atEvent,
  onClose,
  onForked,
}: {
  teamId: string;
  sessionId: string;
  atEvent: number;
  onClose: () => void;
  onForked: (sessionId: string) => void;
}) {
  const trpc = useTRPC();
  const [message, setMessage] = useState('');
  const fork = useMutation(trpc.sessions.fork.mutationOptions({ onSuccess: (result) => onForked(result.sessionId) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    fork.mutate({ teamId, sessionId, atEvent, ...(message.trim() ? { message: message.trim() } : {}) });
  }

  return (
    <Dialog
      testId="fork-dialog"
      onClose={onClose}
      title={
        <>
          <GitFork aria-hidden className="size-4" /> Fork from event #{atEvent}
        </>
      }
      description={`The new branch gets this branch’s conversation up to #${atEvent} and its workspace files as they were then. Nothing after it is copied or run again.`}
    >
      <form className="flex flex-col gap-3" onSubmit={onSubmit}>
        <Textarea
          rows={3}
          maxLength={20_000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="Optional: a new instruction the branch starts with"
          aria-label="Message for the new branch"
          data-testid="fork-message"
        />
        <InlineError error={fork.error} testId="fork-error" />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={fork.isPending} data-testid="fork-submit">
            Fork
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
