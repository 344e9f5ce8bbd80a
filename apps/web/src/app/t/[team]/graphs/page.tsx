import type { Metadata } from 'next';
import { GraphsPanel } from '@/components/graphs/graphs-panel';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'Graphs' };

export default function GraphsPage() {
  return (
    <>
      <PageHeader title="Graphs" description="Swarms of agents with governed edges." />
      <div className="max-w-6xl px-8 py-6">
        <GraphsPanel />
      </div>
    </>
  );
}
