import type { Metadata } from 'next';
import { TokensPanel } from '@/components/tokens/tokens-panel';

export const metadata: Metadata = { title: 'API tokens' };

export default function TokensPage() {
  return <TokensPanel />;
}
