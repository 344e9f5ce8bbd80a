import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/page-header';
import { RunsPanel } from '@/components/runs/runs-panel';

export const metadata: Metadata = { title: 'Runs' };

export default function RunsPage() {
  return (
    <>
      <PageHeader title="Runs" description="Every run of this team, live. Click a run to watch it." />
      {/* The filters are read from the URL (useSearchParams), which needs a boundary. */}
      <Suspense>
        <RunsPanel />
      </Suspense>
    </>
  );
}
