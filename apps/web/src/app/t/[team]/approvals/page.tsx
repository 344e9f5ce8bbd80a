import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ApprovalsInbox } from '@/components/approvals/approvals-inbox';
import { PageHeader } from '@/components/page-header';

export const metadata: Metadata = { title: 'Approvals' };

export default function ApprovalsPage() {
  return (
    <>
      <PageHeader title="Approvals" description="Tool calls the team's policy holds for a person: pending first, live." />
      {/* The filter is read from the URL (useSearchParams), which needs a boundary. */}
      <Suspense>
        <ApprovalsInbox />
      </Suspense>
    </>
  );
}
