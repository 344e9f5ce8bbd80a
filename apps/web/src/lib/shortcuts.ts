'use client';

import { useEffect, useRef, useSyncExternalStore } from 'react';

/** A key the current page answers to, as the `?` help lists it. */
export interface PageShortcut {
  /** `KeyboardEvent.key` ("j", "a", "Enter"). */
  key: string;
  label: string;
  run: () => void;
}

interface Group {
  title: string;
  shortcuts: ReadonlyArray<Omit<PageShortcut, 'run'>>;
}

const groups = new Set<Group>();
/** Until when the key after a `g` belongs to the `g <key>` navigation (page keys step aside). */
let chordUntil = 0;

/** The shell's `g` was pressed: the next key within `ms` is a navigation, not a page shortcut. */
export function startChord(ms: number): void {
  chordUntil = Date.now() + ms;
}

/** Ends a pending `g` chord (it was used, or timed out). */
export function endChord(): void {
  chordUntil = 0;
}
const listeners = new Set<() => void>();
let snapshot: Group[] = [];
const changed = () => {
  snapshot = [...groups];
  for (const listener of listeners) listener();
};

/** Whether a key press is typing (a field, an editor) rather than a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[contenteditable="true"], .cm-editor') !== null)
  );
}

/** The shortcut groups of what is mounted now (for the `?` help). */
export function usePageShortcutGroups(): Group[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
    () => snapshot,
  );
}

/**
 * Single keys this page answers to while it is mounted (never while typing, never with a
 * modifier), listed under `title` in the `?` help.
 */
export function usePageShortcuts(title: string, shortcuts: PageShortcut[]): void {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  const keys = shortcuts.map((s) => `${s.key}:${s.label}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-registers when the keys or labels change (`keys`); the handlers are read from a ref
  useEffect(() => {
    const group: Group = { title, shortcuts: latest.current.map(({ key, label }) => ({ key, label })) };
    groups.add(group);
    changed();
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || event.defaultPrevented || isTyping(event.target)) return;
      if (Date.now() < chordUntil) return;
      const match = latest.current.find((s) => s.key === event.key);
      if (!match) return;
      event.preventDefault();
      match.run();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      groups.delete(group);
      changed();
    };
  }, [title, keys]);
}
