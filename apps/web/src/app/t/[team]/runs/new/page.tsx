import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { RunComposer } from '@/components/runs/run-composer';

export const metadata: Metadata = { title: 'New run' };

export default async function NewRunPage(props: { searchParams: Promise<{ agent?: string | string[] }> }) {
  const { agent } = await props.searchParams;
  return (
    <>
      <PageHeader title="New run" description="Give an agent a goal. You can watch it, message it and stop it from the run page." />
      <div className="max-w-4xl px-8 py-6">
        <RunComposer initialAgentId={typeof agent === 'string' ? agent : null} />
      </div>
    </>
  );
}
