'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useRef } from 'react';

/**
 * Filters and tabs kept in the page's query string, so a filtered view can be shared, bookmarked
 * and reloaded. `params` reads them; `set` changes some at once (a value equal to its default, or
 * empty, leaves the URL) and replaces the history entry, so typing in a filter does not fill the
 * back button.
 */
export function useUrlState<K extends string>(defaults: Record<K, string>) {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const initial = useRef(defaults);
  const get = (key: K): string => search.get(key) ?? defaults[key];
  const set = useCallback(
    (changes: Partial<Record<K, string>>) => {
      // The live URL, not the render's copy: two changes in one tick both land.
      const next = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(changes) as Array<[K, string | undefined]>) {
        if (value === undefined || value === '' || value === initial.current[key]) next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  return { get, set };
}
