'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
// Scalar's own styles (scoped under .scalar-app): without them the reference renders as bare text.
// Imported here, they load only with this page's chunk.
import '@scalar/api-reference-react/style.css';
import './scalar-theme.css';
import { useDarkTheme } from '@/lib/use-dark-theme';

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
          // Nothing that talks to Scalar's services: no AI chat, no MCP hand-off, no developer toolbar.
          agent: { disabled: true },
          mcp: { disabled: true },
          showDeveloperTools: 'never',
        }}
      />
    </div>
  );
}
