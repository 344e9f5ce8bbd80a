import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { RunsPanel } from '@/components/runs/runs-panel';

export const metadata: Metadata = { title: 'Runs' };

export default function RunsPage() {
  return (
    <>
      <PageHeader title="Runs" description="Every run of this team, live. Click a run to watch it." />
      <RunsPanel />
    </>
  );
}
