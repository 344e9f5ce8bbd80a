'use client';

import { FileArchive } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '@/components/files/files-format';
import { Label } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { ARCHIVE_ACCEPT, type UploadedArchive, type UploadHandle, uploadArchive } from '@/lib/upload-archive';

type UploadState =
  | { step: 'idle' }
  | { step: 'sending'; name: string; sent: number; total: number }
  | { step: 'done'; upload: UploadedArchive }
  | { step: 'failed'; error: Error };

/**
 * Picks an archive (.tar, .tar.gz, .zip) and uploads it at once, showing the progress, then what
 * the server found in it (files, sizes) or why it refused it. `onUploaded` gets the upload's id
 * once it is stored, and null while there is none (a new pick starts over).
 */
export function UploadField({ teamId, onUploaded }: { teamId: string; onUploaded: (uploadId: string | null) => void }) {
  const [state, setState] = useState<UploadState>({ step: 'idle' });
  const current = useRef<UploadHandle | null>(null);
  // Leaving the page stops an upload still being sent.
  useEffect(() => () => current.current?.abort(), []);

  function pick(file: File | undefined) {
    current.current?.abort();
    current.current = null;
    onUploaded(null);
    if (!file) return setState({ step: 'idle' });
    setState({ step: 'sending', name: file.name, sent: 0, total: file.size });
    const handle = uploadArchive(teamId, file, (sent, total) => setState({ step: 'sending', name: file.name, sent, total }));
    current.current = handle;
    handle.done.then(
      (upload) => {
        if (current.current !== handle) return;
        setState({ step: 'done', upload });
        onUploaded(upload.id);
      },
      (error: Error) => {
        if (current.current === handle) setState({ step: 'failed', error });
      },
    );
  }

  return (
    <div className="flex flex-col gap-2" data-testid="workspace-upload" data-step={state.step}>
      <Label htmlFor="workspace-upload-file">Archive (.tar, .tar.gz, .zip)</Label>
      <input
        id="workspace-upload-file"
        type="file"
        accept={ARCHIVE_ACCEPT}
        onChange={(e) => pick(e.target.files?.[0])}
        className="text-[13px] file:mr-3 file:rounded-md file:border file:border-border-strong file:bg-surface file:px-2.5 file:py-1 file:text-[13px]"
        data-testid="workspace-upload-file"
      />
      {state.step === 'sending' ? (
        <div className="flex items-center gap-2 text-xs text-muted">
          <progress
            className="h-1.5 w-48"
            max={state.total || 1}
            value={state.sent}
            aria-label={`Uploading ${state.name}`}
            data-testid="workspace-upload-progress"
          />
          <span className="tabular-nums">
            {formatBytes(state.sent)} of {formatBytes(state.total)}
          </span>
        </div>
      ) : null}
      {state.step === 'done' ? (
        <p className="flex items-center gap-2 text-xs" aria-live="polite" data-testid="workspace-upload-done">
          <FileArchive aria-hidden className="size-3.5 text-success" />
          <span>
            <span className="font-mono">{state.upload.filename}</span> uploaded: {state.upload.files} {state.upload.files === 1 ? 'entry' : 'entries'},{' '}
            {formatBytes(state.upload.bytes)} ({formatBytes(state.upload.unpackedBytes)} unpacked, {state.upload.format})
          </span>
        </p>
      ) : null}
      {state.step === 'failed' ? <InlineError error={state.error} testId="workspace-upload-error" /> : null}
    </div>
  );
}
