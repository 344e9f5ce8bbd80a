import type { Metadata } from 'next';
import { AgentForm } from '@/components/agents/agent-form';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'New agent' };

export default function NewAgentPage() {
  return (
    <>
      <PageHeader title="New agent" />
      <div className="max-w-5xl px-8 py-6">
        <AgentForm />
      </div>
    </>
  );
}
