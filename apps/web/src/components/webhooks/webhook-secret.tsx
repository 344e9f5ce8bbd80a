'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';

/** A signing secret the server has just returned: at create or at rotation, and never again. */
export interface ShownSecret {
  webhookId: string;
  url: string;
  secret: string;
  kind: 'created' | 'rotated';
}

/** The endpoint's new signing secret, shown this once, with a copy button. */
export function WebhookSecret({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // Move focus here so keyboard and screen-reader users land on the secret (again for each new one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new secret shown
  useEffect(() => box.current?.focus(), [shown.secret]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard blocked (insecure origin): select the text so Ctrl/Cmd-C works.
      const node = box.current?.querySelector('code');
      if (node) {
        const range = document.createRange();
        range.selectNodeContents(node);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      }
    }
  }

  return (
    <div
      ref={box}
      tabIndex={-1}
      aria-live="polite"
      data-testid="webhook-secret-shown"
      data-kind={shown.kind}
      className="rounded-lg border border-success/30 bg-success-soft p-4 outline-none"
    >
      <p className="text-sm font-semibold">
        {shown.kind === 'created' ? 'Webhook created' : 'Signing secret rotated'}{' '}
        <span className="font-mono text-xs font-normal break-all text-muted">{shown.url}</span>
      </p>
      <div className="mt-3 flex items-center gap-2 rounded-md border border-border bg-surface p-1.5 pl-3 shadow-xs">
        <code className="min-w-0 flex-1 font-mono text-[13px] break-all select-all" data-testid="webhook-secret">
          {shown.secret}
        </code>
        <Button size="sm" onClick={() => void copy()} data-testid="webhook-secret-copy">
          {copied ? <Check aria-hidden className="size-3.5 text-success" /> : <Copy aria-hidden className="size-3.5" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <div className="mt-3 flex items-center justify-between gap-4">
        <p className="flex items-center gap-1.5 text-[13px] text-warning">
          <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
          {shown.kind === 'rotated' ? 'The old secret no longer signs anything. ' : ''}
          Copy it now: you won&apos;t see it again. Verify deliveries with it (Standard Webhooks).
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss} data-testid="webhook-secret-dismiss">
          Done
        </Button>
      </div>
    </div>
  );
}
