import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { THEME_SCRIPT } from '@/components/shell/theme';
import { TrpcReactProvider } from '@/trpc/client';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Looplane', template: '%s · Looplane' },
  description: 'Control plane for long-running AI agents',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets data-theme before hydration; React must not fight it.
    <html lang="en" data-theme="light" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </body>
    </html>
  );
}
