import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { THEME_SCRIPT } from '@/components/shell/theme';
import { TooltipProvider } from '@/components/ui/tooltip';
import { TrpcReactProvider } from '@/trpc/client';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Looplane', template: '%s · Looplane' },
  description: 'Control plane for long-running AI agents',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's CSP nonce (src/proxy.ts): the one inline script we write must carry it to run.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    // The theme script sets data-theme before hydration; React must not fight it.
    <html lang="en" data-theme="light" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script (no input in it), nonced for the CSP */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <TrpcReactProvider>
          <TooltipProvider>{children}</TooltipProvider>
        </TrpcReactProvider>
      </body>
    </html>
  );
}
