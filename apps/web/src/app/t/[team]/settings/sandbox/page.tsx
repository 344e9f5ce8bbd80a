import type { Metadata } from 'next';
import { SandboxPanel } from '@/components/sandbox/sandbox-panel';

export const metadata: Metadata = { title: 'Sandbox' };

export default function SandboxPage() {
  return <SandboxPanel />;
}
