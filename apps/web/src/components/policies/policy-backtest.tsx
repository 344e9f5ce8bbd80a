'use client';

import { History } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { postEventStream } from '@/lib/sse-post';
import { BacktestMatrix, type BacktestResultView } from './backtest-matrix';

interface Progress {
  processed: number;
  total: number;
}

/** `datetime-local` value (local time, minutes) of a date. */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/**
 * Backtest: every tool call recorded in a window decided again under the editor's draft, with
 * progress while it runs (streamed, a frame per page of recorded calls), then the recorded →
 * candidate matrix. Nothing is saved or changed.
 */
export function PolicyBacktest({ teamId, draft }: { teamId: string; draft: string }) {
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 7 * 86_400_000)));
  const [until, setUntil] = useState('');
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<BacktestResultView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setError(null);
    setResult(null);
    setProgress({ processed: 0, total: 0 });
    const body = { document: draft, since: new Date(since).toISOString(), ...(until ? { until: new Date(until).toISOString() } : {}), limit: 5 };
    try {
      await postEventStream(
        `/api/teams/${teamId}/policy-backtest`,
        body,
        (message) => {
          if (message.event === 'progress') setProgress(message.data as Progress);
          else if (message.event === 'result') setResult(message.data as BacktestResultView);
          else if (message.event === 'error') setError((message.data as { message?: string }).message ?? 'The backtest failed');
        },
        controller.signal,
      );
    } catch (caught) {
      if (!controller.signal.aborted) setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      if (abort.current === controller) setRunning(false);
    }
  }

  const percent = progress && progress.total > 0 ? Math.round((progress.processed / progress.total) * 100) : 0;
  return (
    <Card>
      <CardHeader
        title="Backtest"
        description="Decide every tool call recorded in a window again under the draft in the editor: what would have changed. Nothing runs and nothing is saved."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="policy-backtest">
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Since" htmlFor="backtest-since">
            <Input id="backtest-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required data-testid="backtest-since" />
          </Field>
          <Field label="Until (empty: now)" htmlFor="backtest-until">
            <Input id="backtest-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} data-testid="backtest-until" />
          </Field>
          <Button type="submit" variant="primary" disabled={running || draft.trim() === ''} data-testid="backtest-run">
            <History className="size-3.5" aria-hidden />
            Run backtest
          </Button>
        </div>
        {running && progress ? (
          <div className="flex items-center gap-3 text-xs text-muted" data-testid="backtest-progress" role="status">
            <progress value={progress.processed} max={Math.max(progress.total, 1)} className="h-2 w-48" />
            {progress.processed.toLocaleString()} of {progress.total.toLocaleString()} recorded calls ({percent} %)
          </div>
        ) : null}
        {error ? (
          <p className="text-xs text-danger" data-testid="backtest-error">
            {error}
          </p>
        ) : null}
        {result ? <BacktestMatrix result={result} /> : null}
      </form>
    </Card>
  );
}
