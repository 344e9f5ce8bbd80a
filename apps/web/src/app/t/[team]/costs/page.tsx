import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/page-header';
import { SpendPanel } from '@/components/costs/spend-panel';

export const metadata: Metadata = { title: 'Costs' };

export default function CostsPage() {
  return (
    <>
      <PageHeader title="Costs" description="Model spend over time by agent, endpoint and graph edge; the runs that spent most. Export as CSV." />
      <div className="max-w-7xl px-8 py-6">
        {/* The period and view are read from the URL (useSearchParams), which needs a boundary. */}
        <Suspense>
          <SpendPanel />
        </Suspense>
      </div>
    </>
  );
}
