'use client';

import dynamic from 'next/dynamic';

/**
 * The file viewer and the diff renderer, loaded when first shown. Their libraries
 * (highlight.js's grammars, @git-diff-view with its own highlighter) are most of the run page's
 * script; a page that shows a timeline should not wait for them.
 */
const placeholder = () => (
  <p className="px-3 py-2 text-xs text-muted" data-testid="lazy-loading">
    Loading the viewer…
  </p>
);

export const LazyUnifiedDiff = dynamic(() => import('./unified-diff').then((m) => m.UnifiedDiff), { ssr: false, loading: placeholder });
export const LazyFileViewer = dynamic(() => import('./file-viewer').then((m) => m.FileViewer), { ssr: false, loading: placeholder });
