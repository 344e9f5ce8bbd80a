import type { Metadata } from 'next';
import { SecretsPanel } from '@/components/secrets/secrets-panel';

export const metadata: Metadata = { title: 'Secrets' };

export default function SecretsPage() {
  return <SecretsPanel />;
}
