'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { CreatedToken } from '@/lib/api-types';

/** The new token's secret, shown this once, with a copy button. */
export function TokenSecret({ token, onDismiss }: { token: CreatedToken & { name: string }; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // Move focus here so keyboard and screen-reader users land on the secret (again for each new one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new token; the id is what changes
  useEffect(() => box.current?.focus(), [token.id]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard blocked (insecure origin): select the text so Ctrl/Cmd-C works.
      const range = document.createRange();
      const node = box.current?.querySelector('code');
      if (node) {
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
      data-testid="token-created"
      className="rounded-lg border border-success/30 bg-success-soft p-4 outline-none"
    >
      <p className="text-sm font-semibold">
        Token “{token.name}” created <span className="font-normal text-muted">({token.role})</span>
      </p>
      <div className="mt-3 flex items-center gap-2 rounded-md border border-border bg-surface p-1.5 pl-3 shadow-xs">
        <code className="min-w-0 flex-1 font-mono text-[13px] break-all select-all" data-testid="token-secret">
          {token.token}
        </code>
        <Button size="sm" onClick={() => void copy()} data-testid="token-copy">
          {copied ? <Check aria-hidden className="size-3.5 text-success" /> : <Copy aria-hidden className="size-3.5" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <div className="mt-3 flex items-center justify-between gap-4">
        <p className="flex items-center gap-1.5 text-[13px] text-warning">
          <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
          Copy it now: you won&apos;t see it again. Only a hash is stored.
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss} data-testid="token-secret-dismiss">
          Done
        </Button>
      </div>
    </div>
  );
}
