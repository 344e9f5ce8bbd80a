import type { Metadata } from 'next';
import { AgentsPanel } from '@/components/agents/agents-panel';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'Agents' };

export default function AgentsPage() {
  return (
    <>
      <PageHeader title="Agents" description="Templates that runs start from." />
      <div className="max-w-6xl px-8 py-6">
        <AgentsPanel />
      </div>
    </>
  );
}
