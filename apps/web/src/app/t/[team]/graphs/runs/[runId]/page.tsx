import type { Metadata } from 'next';
import { GraphRunLive } from '@/components/graphs/graph-run-view';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'Graph run' };

export default async function GraphRunPage({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  return (
    <>
      <PageHeader title="Graph run" description="Node states and per-edge spend, live." />
      <div className="max-w-7xl px-8 py-6">
        <GraphRunLive runId={runId} />
      </div>
    </>
  );
}
