import type { ReactNode } from 'react';
import { SettingsTabs } from '@/components/settings-tabs';
import { PageHeader } from '@/components/page-header';

export default async function SettingsLayout(props: { children: ReactNode; params: Promise<{ team: string }> }) {
  const { team } = await props.params;
  return (
    <>
      <PageHeader title="Settings" description="Who can act in this team, and the API tokens they use.">
        <SettingsTabs base={`/t/${team}`} />
      </PageHeader>
      <div className="max-w-6xl px-8 py-6">{props.children}</div>
    </>
  );
}
