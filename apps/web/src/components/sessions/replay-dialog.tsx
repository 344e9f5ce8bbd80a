'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { Repeat } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';

/**
 * "Replay": the branch again from its start on another endpoint of the team or with another
 * system prompt. While the new model asks for the same tool calls, the recorded results are
 * served from the log (nothing runs again); at the first divergence `stop` ends the replay with
 * a report and `live` goes on for real. The new branch opens in the compare view beside this one.
 */
export function ReplayDialog({
  teamId,
  sessionId,
  endpointId,
  onClose,
  onReplayed,
}: {
  teamId: string;
  sessionId: string;
  /** The branch's own endpoint, preselected. */
  endpointId: string | null;
  onClose: () => void;
  onReplayed: (sessionId: string) => void;
}) {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.agents.endpointOptions.queryOptions({ teamId }));
  const [endpoint, setEndpoint] = useState(endpointId ?? '');
  const [systemPrompt, setSystemPrompt] = useState('');
  const [mode, setMode] = useState<'stop' | 'live'>('stop');
  const replay = useMutation(trpc.sessions.replay.mutationOptions({ onSuccess: (result) => onReplayed(result.sessionId) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    replay.mutate({
      teamId,
      sessionId,
      mode,
      ...(endpoint && endpoint !== endpointId ? { endpointId: endpoint } : {}),
      ...(systemPrompt.trim() ? { systemPrompt: systemPrompt.trim() } : {}),
    });
  }

  return (
    <Dialog
      testId="replay-dialog"
      onClose={onClose}
      title={
        <>
          <Repeat aria-hidden className="size-4" /> Replay this branch
        </>
      }
      description="The new model gets the recorded input from the branch’s start. While it asks for the same tool calls, the recorded results are served from the log: nothing runs again. Its spend is its own and counts against the run’s budget."
    >
      <form className="flex flex-col gap-3" onSubmit={onSubmit}>
        <Label htmlFor="replay-endpoint">Model endpoint</Label>
        <Select id="replay-endpoint" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} data-testid="replay-endpoint">
          {(endpoints.data ?? []).map((e) => (
            <option key={e.id} value={e.id}>
              {e.name} ({e.kind} · {e.model})
            </option>
          ))}
        </Select>
        <Label htmlFor="replay-prompt">System prompt (optional)</Label>
        <Textarea
          id="replay-prompt"
          rows={3}
          maxLength={20_000}
          value={systemPrompt}
          onChange={(e) => setSystemPrompt(e.target.value)}
          placeholder="Leave empty to keep the branch’s prompt"
          data-testid="replay-system-prompt"
        />
        <fieldset className="flex flex-col gap-1 text-xs" data-testid="replay-mode">
          <legend className="mb-1 font-medium">At the first divergence</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="replay-mode" value="stop" checked={mode === 'stop'} onChange={() => setMode('stop')} data-testid="replay-mode-stop" />
            Stop, with a divergence report
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="replay-mode" value="live" checked={mode === 'live'} onChange={() => setMode('live')} data-testid="replay-mode-live" />
            Go on live (tools run for real, under the policy and budgets)
          </label>
        </fieldset>
        <InlineError error={replay.error ?? endpoints.error} testId="replay-error" />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={replay.isPending} data-testid="replay-submit">
            Replay
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
