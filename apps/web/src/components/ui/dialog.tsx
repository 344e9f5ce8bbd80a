'use client';

import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A modal dialog (Radix): focus moves into it and is trapped there, Escape or a click on the
 * backdrop closes it, the page behind is inert and does not scroll, and focus goes back to
 * whatever opened it. It is open while rendered (callers mount it when there is something to ask);
 * `onClose` is called for every way of dismissing it.
 */
export function Dialog({
  title,
  description,
  onClose,
  testId,
  className,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  // Radix returns focus to its own Trigger; these dialogs are opened from rows of a list, so the
  // element focused when the dialog opened is remembered and focused again on close. A virtual
  // list may have redrawn that row meanwhile (the dialog's scroll lock resizes the page): the
  // control is then found again by what names it (its test id and accessible name).
  const opener = useRef<{ element: HTMLElement; selector: string | null } | null>(null);
  return (
    <RadixDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/30" />
        <RadixDialog.Content
          data-testid={testId}
          onOpenAutoFocus={() => {
            const element = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            opener.current = element ? { element, selector: selectorOf(element) } : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener.current);
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col gap-3 overflow-auto',
            'rounded-lg border border-border bg-surface p-4 text-foreground shadow-lg focus:outline-none',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <RadixDialog.Title className="flex items-center gap-2 text-sm font-semibold">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="text-xs text-muted">{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that closes the enclosing dialog (through its `onClose`). */
export const DialogClose = RadixDialog.Close;

/** A selector for the same control in a redrawn row: its test id and accessible name, when it has both. */
function selectorOf(element: HTMLElement): string | null {
  const testId = element.dataset.testid;
  const label = element.getAttribute('aria-label');
  return testId && label ? `[data-testid="${CSS.escape(testId)}"][aria-label="${CSS.escape(label)}"]` : null;
}

/** Focuses the opener, or the control that replaced it (looked for again on the next frames while a list redraws). */
function returnFocus(opener: { element: HTMLElement; selector: string | null } | null, frames = 3): void {
  if (!opener) return;
  const target = opener.element.isConnected ? opener.element : opener.selector ? document.querySelector<HTMLElement>(opener.selector) : null;
  if (target) target.focus();
  else if (frames > 0) requestAnimationFrame(() => returnFocus(opener, frames - 1));
}
