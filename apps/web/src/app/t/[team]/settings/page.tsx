import { redirect } from 'next/navigation';

export default async function SettingsIndex(props: { params: Promise<{ team: string }> }) {
  const { team } = await props.params;
  redirect(`/t/${team}/settings/members`);
}
