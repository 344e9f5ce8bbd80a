import { Download } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/field';
import { downloadHref } from './files-format';

/**
 * Which event the files are shown at, a way to pick another, and the tarball of that state.
 * `shown` is the event the server resolved (the latest when none was asked for), so the label
 * and the download always match the listing on screen, not what was typed.
 */
export function FilesToolbar({
  sessionId,
  requested,
  shown,
  commit,
  onPick,
}: {
  sessionId: string;
  requested: number | null;
  shown: number | null;
  commit: string | null;
  onPick: (atEvent: number | null) => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState('');
  // The box follows the event picked elsewhere (the branch's event list), until typed into.
  useEffect(() => setDraft(shown === null ? '' : String(shown)), [shown]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const n = Number(draft);
    if (draft.trim() !== '' && Number.isInteger(n) && n >= 1) onPick(n);
  }

  return (
    <div className="flex flex-wrap items-center gap-3 px-3 py-2">
      <span className="text-xs" data-testid="files-at" data-at-event={shown ?? ''} data-latest={requested === null ? 'true' : 'false'}>
        {shown === null ? 'Loading…' : `at event #${shown}`}
        {requested === null && shown !== null ? <span className="text-muted"> (latest)</span> : null}
        {commit ? (
          <span className="ml-2 font-mono text-muted" title={`workspace commit ${commit}`}>
            {commit.slice(0, 7)}
          </span>
        ) : null}
      </span>
      <form onSubmit={onSubmit} className="flex items-center gap-1.5">
        <Label htmlFor={inputId}>Event #</Label>
        <Input
          id={inputId}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          className="h-7 w-20 tabular-nums"
          data-testid="files-at-input"
        />
        <Button size="sm" type="submit" data-testid="files-at-go">
          Show
        </Button>
        {requested !== null ? (
          <Button size="sm" variant="ghost" onClick={() => onPick(null)} data-testid="files-at-latest">
            Latest
          </Button>
        ) : null}
      </form>
      {shown !== null ? (
        <a
          href={downloadHref(sessionId, shown)}
          download
          className="ml-auto inline-flex h-7 items-center gap-1.5 rounded-md border border-border-strong bg-surface px-2.5 text-xs font-medium shadow-xs hover:bg-surface-2 focus-visible:ring-2 focus-visible:ring-ring/30 focus-visible:outline-none"
          data-testid="files-download"
        >
          <Download aria-hidden className="size-3.5" /> Download .tar.gz
        </a>
      ) : null}
    </div>
  );
}
