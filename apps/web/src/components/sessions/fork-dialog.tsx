'use client';

import { useMutation } from '@tanstack/react-query';
import { GitFork } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * "Fork from here": a new branch whose conversation and workspace files are the branch's at event
 * `atEvent`, optionally starting with a new message. The server checks the point is forkable.
 */
export function ForkDialog({ teamId, sessionId, atEvent, onClose, onForked }: {
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
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4" onClick={onClose}>
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby="fork-dialog-title"
        className="flex w-full max-w-lg flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-lg"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
        onSubmit={onSubmit}
        data-testid="fork-dialog"
      >
        <h2 id="fork-dialog-title" className="flex items-center gap-2 text-sm font-semibold">
          <GitFork aria-hidden className="size-4" /> Fork from event #{atEvent}
        </h2>
        <p className="text-xs text-muted">
          The new branch gets this branch’s conversation up to #{atEvent} and its workspace files as they were then. Nothing after it is copied
          or run again.
        </p>
        <Textarea
          rows={3}
          maxLength={20_000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="Optional: a new instruction the branch starts with"
          aria-label="Message for the new branch"
          autoFocus
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
    </div>
  );
}
