'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose } from '@/components/ui/dialog';
import { endChord, isTyping, startChord, usePageShortcutGroups } from '@/lib/shortcuts';
import { NAV_ITEMS, SETTINGS_ITEMS } from './nav-items';

const SEQUENCE_MS = 1200;

/**
 * `g <key>` jumps to a page (the shortcuts in nav-items.ts) and `?` lists every shortcut, the
 * current page's included — ignored while typing in a field.
 */
export function KeyboardShortcuts({ base }: { base: string }) {
  const router = useRouter();
  const [helpOpen, setHelpOpen] = useState(false);
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
        endChord();
        // The key after `g` is the chord's, page keys or not (they skip handled events).
        event.preventDefault();
        const href = targets.get(event.key);
        if (href) router.push(href);
        return;
      }
      if (event.key === 'g') {
        pendingSince = now;
        startChord(SEQUENCE_MS);
      } else if (event.key === '?') {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    // Capture: the shell sees `g` and the key after it before any page's own keys.
    window.addEventListener('keydown', onKey, { capture: true });
    // Marks the page as listening (tests wait for it instead of racing hydration).
    document.documentElement.dataset.shortcuts = 'ready';
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      delete document.documentElement.dataset.shortcuts;
    };
  }, [base, router]);
  return helpOpen ? <ShortcutsHelp onClose={() => setHelpOpen(false)} /> : null;
}

function Keys({ keys }: { keys: string[] }) {
  return (
    <span className="flex gap-1">
      {keys.map((k) => (
        <kbd key={k} className="min-w-5 rounded border border-border-strong bg-surface-2 px-1.5 py-px text-center font-mono text-[11px] text-foreground">
          {k}
        </kbd>
      ))}
    </span>
  );
}

/** The `?` help: the app's modal dialog (focus moves in and is trapped, Escape closes, focus returns) listing every shortcut. */
function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const pageGroups = usePageShortcutGroups();
  const navigation = [...NAV_ITEMS, ...SETTINGS_ITEMS].filter((item) => item.shortcut);
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} testId="shortcuts-help">
      <div className="grid max-h-[70vh] gap-4 overflow-y-auto text-xs">
        {pageGroups.map((group) => (
          <section key={group.title} data-testid="shortcuts-page">
            <h3 className="mb-1.5 font-medium text-muted">{group.title}</h3>
            <ul className="grid gap-1">
              {group.shortcuts.map((s) => (
                <li key={s.key} className="flex items-center justify-between gap-4">
                  <span>{s.label}</span>
                  <Keys keys={[s.key]} />
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section>
          <h3 className="mb-1.5 font-medium text-muted">Anywhere</h3>
          <ul className="grid gap-1">
            <li className="flex items-center justify-between gap-4">
              <span>Show these shortcuts</span>
              <Keys keys={['?']} />
            </li>
            {navigation.map((item) => (
              <li key={item.id} className="flex items-center justify-between gap-4">
                <span>Go to {item.label}</span>
                <Keys keys={['g', item.shortcut!]} />
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="flex justify-end">
        <DialogClose asChild>
          <Button size="sm" variant="ghost" data-testid="shortcuts-close">
            Close
          </Button>
        </DialogClose>
      </div>
    </Dialog>
  );
}
