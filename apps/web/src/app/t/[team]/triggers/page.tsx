import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { TriggersPanel } from '@/components/triggers/triggers-panel';

export const metadata: Metadata = { title: 'Triggers' };

export default function TriggersPage() {
  return (
    <>
      <PageHeader title="Triggers" description="Signed inbound requests that start runs or message one." />
      <div className="max-w-7xl px-8 py-6">
        <TriggersPanel />
      </div>
    </>
  );
}
