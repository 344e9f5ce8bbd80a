import 'server-only';
import { notFound, redirect } from 'next/navigation';
import { getViewer } from './viewer';

/**
 * The viewer and their membership of the team in the URL. Signed out → /signin (coming back
 * here afterwards); not a member (or no such team) → 404, so team slugs do not leak.
 */
export async function requireTeamScope(slug: string) {
  const viewer = await getViewer();
  if (!viewer) redirect(`/signin?callbackUrl=${encodeURIComponent(`/t/${slug}`)}`);
  const team = viewer.me.teams.find((t) => t.slug === slug);
  if (!team) notFound();
  return { ...viewer, team };
}
