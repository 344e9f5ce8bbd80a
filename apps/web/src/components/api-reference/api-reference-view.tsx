'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import { useEffect, useState } from 'react';

/** The dashboard's theme, followed live (the toggle rewrites `data-theme` on <html>). */
function useDarkTheme(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const root = document.documentElement;
    const read = () => setDark(root.dataset.theme === 'dark');
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/**
 * Scalar's reference for the document the server generates. No default fonts, no telemetry and
 * no proxy: the dashboard loads nothing from other origins (the CSP would refuse it anyway), and
 * "try it" requests go straight to this server with the Bearer token the reader pastes in.
 */
export default function ApiReferenceView({ specUrl }: { specUrl: string }) {
  const dark = useDarkTheme();
  return (
    <div data-testid="api-reference" className="api-reference overflow-hidden rounded-lg border border-border">
      <ApiReferenceReact
        key={dark ? 'dark' : 'light'}
        configuration={{
          url: specUrl,
          withDefaultFonts: false,
          telemetry: false,
          hideDarkModeToggle: true,
          forceDarkModeState: dark ? 'dark' : 'light',
          darkMode: dark,
          layout: 'modern',
          showSidebar: true,
        }}
      />
    </div>
  );
}
