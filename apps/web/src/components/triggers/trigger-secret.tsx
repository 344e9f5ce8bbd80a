'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { curlExample, hookUrl, type TriggerAuth } from '@/lib/trigger-example';
import { useOrigin } from './use-origin';

/** A trigger secret the server has just returned: at create or at rotation, and never again. */
export interface ShownTriggerSecret {
  triggerId: string;
  name: string;
  path: string;
  auth: TriggerAuth;
  secret: string;
  kind: 'created' | 'rotated';
}

function CopyButton({ text, testId }: { text: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          // Clipboard blocked (insecure origin): the text is selectable (select-all) for Ctrl/Cmd-C.
          () => undefined,
        )
      }
      data-testid={testId}
    >
      {copied ? <Check aria-hidden className="size-3.5 text-success" /> : <Copy aria-hidden className="size-3.5" />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

/** The trigger's new secret, shown this once, with its public URL and a curl example that uses both. */
export function TriggerSecret({ shown, onDismiss }: { shown: ShownTriggerSecret; onDismiss: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const url = hookUrl(useOrigin(), shown.path);

  // Move focus here so keyboard and screen-reader users land on the secret (again for each new one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new secret shown
  useEffect(() => box.current?.focus(), [shown.secret]);

  return (
    <div
      ref={box}
      tabIndex={-1}
      aria-live="polite"
      data-testid="trigger-secret-shown"
      data-kind={shown.kind}
      className="flex flex-col gap-3 rounded-lg border border-success/30 bg-success-soft p-4 outline-none"
    >
      <p className="text-sm font-semibold">{shown.kind === 'created' ? `Trigger ${shown.name} created` : `Secret of ${shown.name} rotated`}</p>
      <div className="flex flex-col gap-1">
        <span className="text-xs font-medium text-muted">Public URL (POST JSON here)</span>
        <div className="flex items-center gap-2 rounded-md border border-border bg-surface p-1.5 pl-3 shadow-xs">
          <code className="min-w-0 flex-1 font-mono text-[13px] break-all select-all" data-testid="trigger-url">
            {url}
          </code>
          <CopyButton text={url} testId="trigger-url-copy" />
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-xs font-medium text-muted">{shown.auth === 'bearer' ? 'Bearer secret' : 'Signing secret (Standard Webhooks)'}</span>
        <div className="flex items-center gap-2 rounded-md border border-border bg-surface p-1.5 pl-3 shadow-xs">
          <code className="min-w-0 flex-1 font-mono text-[13px] break-all select-all" data-testid="trigger-secret">
            {shown.secret}
          </code>
          <CopyButton text={shown.secret} testId="trigger-secret-copy" />
        </div>
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer text-muted">Try it with curl</summary>
        <pre
          className="mt-1 overflow-x-auto rounded-md border border-border bg-surface p-2 font-mono text-[11px] whitespace-pre select-all"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
          tabIndex={0}
          data-testid="trigger-curl"
        >
          {curlExample({ url, auth: shown.auth, secret: shown.secret })}
        </pre>
      </details>
      <div className="flex items-center justify-between gap-4">
        <p className="flex items-center gap-1.5 text-[13px] text-warning">
          <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
          {shown.kind === 'rotated' ? 'The old secret no longer works. ' : ''}
          Copy it now: you won&apos;t see it again.
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss} data-testid="trigger-secret-dismiss">
          Done
        </Button>
      </div>
    </div>
  );
}
