'use client';

import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/** One provider for the app's tooltips: a short delay, and moving between triggers shows the next at once. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return <RadixTooltip.Provider delayDuration={300}>{children}</RadixTooltip.Provider>;
}

/**
 * A tooltip (Radix) on its one child: shown on hover and on keyboard focus, hidden by Escape,
 * and announced as the child's description (`aria-describedby`) while open. For icon buttons'
 * labels and for why a control cannot be used: give such a control `aria-disabled` rather than
 * `disabled`, so it stays focusable and its reason reachable without a mouse. The child keeps
 * its own accessible name (`aria-label`).
 */
export function Tooltip({ content, children, side = 'top' }: { content: ReactNode; children: ReactElement; side?: 'top' | 'right' | 'bottom' | 'left' }) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={4}
          collisionPadding={8}
          className="z-50 max-w-xs rounded-md border border-border bg-surface px-2 py-1 text-xs text-foreground shadow-md"
          data-testid="tooltip"
        >
          {content}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
