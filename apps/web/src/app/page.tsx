import { redirect } from 'next/navigation';
import { NoTeams } from '@/components/no-teams';
import { getViewer } from '@/server/viewer';

/** `/`: to the first team of the signed-in user, or to sign-in. */
export default async function HomePage() {
  const viewer = await getViewer();
  if (!viewer) redirect('/signin');
  const first = viewer.me.teams[0];
  if (first) redirect(`/t/${first.slug}`);
  return <NoTeams email={viewer.me.user.email} />;
}
