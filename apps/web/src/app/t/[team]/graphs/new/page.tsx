import type { Metadata } from 'next';
import { GraphEditorLoader } from '@/components/graphs/graph-editor';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'New graph' };

export default function NewGraphPage() {
  return (
    <>
      <PageHeader title="New graph" description="Nodes are agent templates; edges carry budgets, approval and data rules." />
      <div className="max-w-7xl px-8 py-6">
        <GraphEditorLoader graphId={null} />
      </div>
    </>
  );
}
