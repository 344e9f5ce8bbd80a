import type { Metadata } from 'next';
import { ApiPanel } from '@/components/api-reference/api-panel';

export const metadata: Metadata = { title: 'API' };

export default function ApiPage() {
  return <ApiPanel />;
}
