'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** This page's origin (`https://looplane.example.com`): empty while rendering on the server. */
export function useOrigin(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => '',
  );
}
