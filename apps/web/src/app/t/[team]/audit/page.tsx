import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PageHeader } from '@/components/page-header';
import { AuditPanel } from '@/components/audit/audit-panel';

export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  return (
    <>
      <PageHeader title="Audit" description="Who did what, in a tamper-evident hash chain. Exports verify offline with `looplane audit verify FILE`." />
      <div className="max-w-7xl px-8 py-6">
        {/* The filters are read from the URL (useSearchParams), which needs a boundary. */}
        <Suspense>
          <AuditPanel />
        </Suspense>
      </div>
    </>
  );
}
