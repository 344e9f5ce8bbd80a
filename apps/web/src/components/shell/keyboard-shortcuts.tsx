'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { NAV_ITEMS, SETTINGS_ITEMS } from './nav-items';

const SEQUENCE_MS = 1200;

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** `g <key>` jumps to a page (the shortcuts in nav-items.ts) — ignored while typing in a field. */
export function KeyboardShortcuts({ base }: { base: string }) {
  const router = useRouter();
  useEffect(() => {
    const targets = new Map<string, string>();
    for (const item of [...NAV_ITEMS, ...SETTINGS_ITEMS]) {
      if (item.shortcut && item.path !== null) targets.set(item.shortcut, base + item.path);
    }
    let pendingSince = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const now = Date.now();
      if (now - pendingSince < SEQUENCE_MS) {
        pendingSince = 0;
        const href = targets.get(event.key);
        if (href) {
          event.preventDefault();
          router.push(href);
        }
        return;
      }
      if (event.key === 'g') pendingSince = now;
    };
    window.addEventListener('keydown', onKey);
    // Marks the page as listening (tests wait for it instead of racing hydration).
    document.documentElement.dataset.shortcuts = 'ready';
    return () => {
      window.removeEventListener('keydown', onKey);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [base, router]);
  return null;
}
