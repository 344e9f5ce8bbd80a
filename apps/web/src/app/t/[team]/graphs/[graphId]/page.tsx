import type { Metadata } from 'next';
import { GraphEditorLoader } from '@/components/graphs/graph-editor';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'Edit graph' };

export default async function GraphPage({ params }: { params: Promise<{ graphId: string }> }) {
  const { graphId } = await params;
  return (
    <>
      <PageHeader title="Edit graph" description="Saving makes a new version; runs keep the version they started with." />
      <div className="max-w-7xl px-8 py-6">
        <GraphEditorLoader graphId={graphId} />
      </div>
    </>
  );
}
