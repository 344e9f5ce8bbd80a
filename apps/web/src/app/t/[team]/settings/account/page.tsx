import type { Metadata } from 'next';
import { ChangePasswordForm } from '@/components/account/change-password-form';

export const metadata: Metadata = { title: 'Account' };

export default function AccountPage() {
  return <ChangePasswordForm />;
}
