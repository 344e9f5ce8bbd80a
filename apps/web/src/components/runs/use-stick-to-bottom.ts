'use client';

import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the bottom". */
const SLACK_PX = 48;

/**
 * Auto-scroll for a growing log: while the user is at the bottom, new content keeps it there;
 * once they scroll up it stops, and resumes when they return to the bottom (or jump there).
 */
export function useStickToBottom(ref: RefObject<HTMLElement | null>, contentVersion: unknown) {
  const stuck = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const near = element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK_PX;
    stuck.current = near;
    setAtBottom(near);
  }, [ref]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  }, [ref, contentVersion]);

  const jumpToBottom = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    stuck.current = true;
    setAtBottom(true);
    element.scrollTop = element.scrollHeight;
  }, [ref]);

  return { atBottom, onScroll, jumpToBottom };
}
