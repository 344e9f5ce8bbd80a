'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send, Square } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

function useRefreshRun(teamId: string, runId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.runs.get.queryFilter({ teamId, runId }));
}

/** Cancel, confirmed inline. The worker stops the loop within a second and records the outcome. */
export function CancelRun({ teamId, runId, requested }: { teamId: string; runId: string; requested: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefreshRun(teamId, runId);
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: () => setConfirming(false), onSettled: refresh }));
  if (requested) {
    return (
      <span className="text-xs text-muted" data-testid="run-cancel-requested">
        Cancelling…
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5">
      {confirming ? (
        <>
          <Button size="sm" variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate({ teamId, runId })} data-testid="run-cancel-confirm">
            Stop the run
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Keep running
          </Button>
        </>
      ) : (
        <Button size="sm" variant="danger-ghost" onClick={() => setConfirming(true)} data-testid="run-cancel">
          <Square aria-hidden className="size-3" /> Cancel run
        </Button>
      )}
      <InlineError error={cancel.error} testId="run-cancel-error" />
    </span>
  );
}

/** A message to the run; what happens while it is busy follows the agent's busy policy. */
export function MessageBox({ teamId, runId, busyPolicy }: { teamId: string; runId: string; busyPolicy: string }) {
  const trpc = useTRPC();
  const refresh = useRefreshRun(teamId, runId);
  const [text, setText] = useState('');
  const send = useMutation(trpc.runs.sendMessage.mutationOptions({ onSuccess: () => setText(''), onSettled: refresh }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (text.trim()) send.mutate({ teamId, runId, text });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-2 border-t border-border p-3" data-testid="run-message-form">
      <div className="flex items-end gap-2">
        <Textarea
          rows={2}
          maxLength={20_000}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
          }}
          placeholder={`Message the run (busy policy: ${busyPolicy})… Ctrl+Enter to send`}
          aria-label="Message the run"
          data-testid="run-message-input"
        />
        <Button type="submit" variant="primary" disabled={send.isPending || !text.trim()} data-testid="run-message-send">
          <Send aria-hidden className="size-3.5" /> Send
        </Button>
      </div>
      <InlineError error={send.error} testId="run-message-error" />
    </form>
  );
}

/** Approver+: add to the run's limits; a run waiting on its budget continues. */
export function RaiseBudget({ teamId, runId }: { teamId: string; runId: string }) {
  const trpc = useTRPC();
  const refresh = useRefreshRun(teamId, runId);
  const raise = useMutation(trpc.runs.raiseBudget.mutationOptions({ onSettled: refresh }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const tokens = Number(form.get('tokens') || 0);
    const usd = Number(form.get('usd') || 0);
    const calls = Number(form.get('calls') || 0);
    raise.mutate({
      teamId,
      runId,
      ...(tokens > 0 ? { tokens: Math.round(tokens) } : {}),
      ...(usd > 0 ? { costMicros: Math.round(usd * 1_000_000) } : {}),
      ...(calls > 0 ? { toolCalls: Math.round(calls) } : {}),
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2 text-xs" data-testid="run-raise-form">
      <span className="text-muted">Raise by</span>
      <Input name="tokens" type="number" min={1} placeholder="tokens" className="w-24" aria-label="Tokens to add" />
      <Input name="usd" type="number" min={0} step="any" placeholder="USD" className="w-20" aria-label="Dollars to add" />
      <Input name="calls" type="number" min={1} placeholder="tool calls" className="w-24" aria-label="Tool calls to add" />
      <Button type="submit" size="sm" disabled={raise.isPending} data-testid="run-raise-submit">
        Raise
      </Button>
      <InlineError error={raise.error} testId="run-raise-error" />
    </form>
  );
}
