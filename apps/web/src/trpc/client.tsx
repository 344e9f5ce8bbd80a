'use client';

import type { AppRouter } from '@looplane/api';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import { wireTransformer } from '@looplane/shared/wire';

const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
export { useTRPC };

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // 4xx answers (forbidden, not found, bad input) will not change on retry.
        retry: (count, error) => count < 2 && (httpStatus(error) ?? 500) >= 500,
      },
    },
  });
}

function httpStatus(error: unknown): number | undefined {
  const data = (error as { data?: { httpStatus?: number } } | null)?.data;
  return data?.httpStatus;
}

let browserQueryClient: QueryClient | undefined;

// A fresh client per server render (no data shared between requests), one for the browser's life.
function getQueryClient(): QueryClient {
  if (typeof window === 'undefined') return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

/** Provides TanStack Query and the typed tRPC hooks (`useTRPC`) to client components. */
export function TrpcReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // maxItems matches the server's MAX_BATCH_SIZE (a larger batch is refused with 400).
      links: [httpBatchLink({ url: '/api/trpc', transformer: wireTransformer, maxItems: 20 })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
