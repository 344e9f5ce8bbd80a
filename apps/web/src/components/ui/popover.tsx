'use client';

import * as RadixPopover from '@radix-ui/react-popover';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/**
 * A popover (Radix): anchored to its trigger (flipped and kept on screen), Escape or a click
 * outside closes it and focus returns to the trigger. The trigger gets aria-expanded and
 * aria-controls from Radix.
 */
export const Popover = RadixPopover.Root;
export const PopoverTrigger = RadixPopover.Trigger;

export function PopoverContent({ className, sideOffset = 4, align = 'start', ...props }: ComponentProps<typeof RadixPopover.Content>) {
  return (
    <RadixPopover.Portal>
      <RadixPopover.Content
        sideOffset={sideOffset}
        align={align}
        className={cn('z-50 rounded-md border border-border bg-surface p-1 text-foreground shadow-lg focus:outline-none', className)}
        {...props}
      />
    </RadixPopover.Portal>
  );
}
