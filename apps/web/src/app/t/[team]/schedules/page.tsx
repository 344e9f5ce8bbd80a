import type { Metadata } from 'next';
import { PageHeader } from '@/components/page-header';
import { SchedulesPanel } from '@/components/schedules/schedules-panel';

export const metadata: Metadata = { title: 'Schedules' };

export default function SchedulesPage() {
  return (
    <>
      <PageHeader title="Schedules" description="Agents and graphs run on a cron or an interval." />
      <div className="max-w-7xl px-8 py-6">
        <SchedulesPanel />
      </div>
    </>
  );
}
