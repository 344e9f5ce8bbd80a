import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { EndpointsPanel } from '@/components/endpoints/endpoints-panel';

export const metadata: Metadata = { title: 'Endpoints' };

export default function EndpointsPage() {
  return (
    <>
      <PageHeader title="Endpoints" description="The models agents run on, their prices and limits." />
      <div className="max-w-7xl px-8 py-6">
        <EndpointsPanel />
      </div>
    </>
  );
}
