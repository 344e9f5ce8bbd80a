import { CircleAlert } from 'lucide-react';
import { errorMessage } from '@/lib/error-message';
import { cn } from '@/lib/cn';

/**
 * An API error shown where it happened. Not `role="alert"` on purpose: Next's route announcer
 * already owns that role; `aria-live` still reads it out. Renders nothing without an error.
 */
export function InlineError({ error, testId, className }: { error: unknown; testId: string; className?: string }) {
  if (!error) return null;
  return (
    <p
      aria-live="polite"
      data-testid={testId}
      className={cn('flex items-start gap-2 rounded-md border border-danger/25 bg-danger-soft px-3 py-2 text-[13px] text-danger', className)}
    >
      <CircleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
      <span>{errorMessage(error)}</span>
    </p>
  );
}
