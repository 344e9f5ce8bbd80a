import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { PoliciesPanel } from '@/components/policies/policies-panel';

export const metadata: Metadata = { title: 'Policies' };

export default function PoliciesPage() {
  return (
    <>
      <PageHeader title="Policies" description="What agents may do: allow, deny, or ask an approver. Default deny." />
      <div className="max-w-7xl px-8 py-6">
        <PoliciesPanel />
      </div>
    </>
  );
}
