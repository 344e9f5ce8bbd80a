'use client';

import { Label, Textarea } from '@/components/ui/field';
import { MarkdownPreview } from './markdown-preview';

/** Bytes of UTF-8, as the server counts the 64 KB cap. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Markdown written in a plain textarea beside its preview (stacked on narrow screens). The byte
 * count is the server's measure; the server's refusal is what counts.
 */
export function MarkdownEditor(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  maxBytes: number;
  testId: string;
}) {
  const bytes = utf8Bytes(props.value);
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <div className="grid gap-3 lg:grid-cols-2">
        <Textarea
          id={props.id}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          readOnly={props.readOnly}
          rows={18}
          spellCheck={false}
          className="font-mono text-[12px]"
          aria-describedby={`${props.id}-size`}
          data-testid={props.testId}
        />
        <section
          aria-label={`${props.label}: preview`}
          className="max-h-[28rem] min-h-32 overflow-y-auto rounded-md border border-border bg-surface-2/30 p-3"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
          tabIndex={0}
        >
          <MarkdownPreview source={props.value} testId={`${props.testId}-preview`} />
        </section>
      </div>
      <p id={`${props.id}-size`} className={bytes > props.maxBytes ? 'text-xs text-danger' : 'text-xs text-muted'} data-testid={`${props.testId}-size`}>
        {bytes.toLocaleString('en-US')} of {props.maxBytes.toLocaleString('en-US')} bytes. Markdown; the preview shows headings, lists, code, emphasis and
        links.
      </p>
    </div>
  );
}
