'use client';

import { useMutation } from '@tanstack/react-query';
import { Play, Repeat, Star } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { isFinished, type SessionNode } from './session-format';

/** Promote a branch to the run's main line; replay it on another endpoint or prompt; resume a finished one with a new instruction. */
export function BranchActions({ teamId, node, onChanged, onReplay }: { teamId: string; node: SessionNode; onChanged: () => void; onReplay: () => void }) {
  const trpc = useTRPC();
  const [message, setMessage] = useState('');
  const promote = useMutation(trpc.sessions.promote.mutationOptions({ onSettled: onChanged }));
  const resume = useMutation(trpc.sessions.resume.mutationOptions({ onSuccess: () => setMessage(''), onSettled: onChanged }));

  function onResume(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (message.trim()) resume.mutate({ teamId, sessionId: node.id, message: message.trim() });
  }

  return (
    <div className="flex flex-wrap items-center gap-2 px-3 py-2" data-testid="branch-actions">
      {!node.isMain ? (
        <Button size="sm" disabled={promote.isPending} onClick={() => promote.mutate({ teamId, sessionId: node.id })} data-testid="session-promote">
          <Star aria-hidden className="size-3" /> Make main line
        </Button>
      ) : null}
      <Button
        size="sm"
        onClick={onReplay}
        title="Replay this branch on another endpoint or prompt, serving the recorded tool results"
        data-testid="session-replay"
      >
        <Repeat aria-hidden className="size-3" /> Replay
      </Button>
      {isFinished(node.status) ? (
        <form onSubmit={onResume} className="flex flex-1 items-center gap-2">
          <Input
            value={message}
            maxLength={20_000}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="Resume this branch with a new instruction…"
            aria-label="Instruction to resume the branch with"
            data-testid="session-resume-input"
          />
          <Button size="sm" type="submit" disabled={resume.isPending || !message.trim()} data-testid="session-resume">
            <Play aria-hidden className="size-3" /> Resume
          </Button>
        </form>
      ) : null}
      <InlineError error={promote.error ?? resume.error} testId="branch-action-error" />
    </div>
  );
}
