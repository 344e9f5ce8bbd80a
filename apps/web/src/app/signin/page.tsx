import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/signin-form';
import { env, oidcConfigured } from '@/env';
import { safeCallbackPath } from '@/lib/safe-redirect';
import { getViewer } from '@/server/viewer';

export const metadata: Metadata = { title: 'Sign in' };

// next-auth redirects here with `?error=<code>`; these are the ones a person can act on.
const ERRORS: Record<string, string> = {
  AccessDenied: 'Your SSO account is not linked to a Looplane user. Ask a team admin to invite your email first.',
  OAuthSignin: 'Could not start SSO sign-in. Check the OIDC settings of this server.',
  OAuthCallback: 'SSO sign-in failed on the way back from the identity provider. Try again.',
  CredentialsSignin: 'Wrong email or password.',
  TooManyAttempts: 'Too many failed sign-ins: this account or address is locked for a while. Try again later.',
  SessionRequired: 'Please sign in to continue.',
};

export default async function SignInPage(props: { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> }) {
  const params = await props.searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  if (await getViewer()) redirect(callbackUrl);

  const e = env();
  const errorCode = Array.isArray(params.error) ? params.error[0] : params.error;
  const initialError = errorCode ? (ERRORS[errorCode] ?? 'Sign-in failed. Try again.') : null;

  return (
    <main className="grid min-h-screen place-items-center bg-background p-6">
      <div className="w-full max-w-[360px]">
        <div className="mb-6 flex flex-col items-center gap-2 text-center">
          <svg aria-hidden viewBox="0 0 24 24" className="size-8 text-accent" fill="none" stroke="currentColor" strokeWidth="2.2">
            <path d="M4 12a8 8 0 0 1 14.5-4.6M20 12a8 8 0 0 1-14.5 4.6" strokeLinecap="round" />
            <path d="M18.5 3v4.4h-4.4M5.5 21v-4.4h4.4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <h1 className="text-lg font-semibold tracking-tight">Sign in to Looplane</h1>
          <p className="text-muted">Control plane for long-running agents</p>
        </div>
        <SignInForm callbackUrl={callbackUrl} initialError={initialError} sso={oidcConfigured(e) ? { name: e.OIDC_NAME } : null} />
      </div>
    </main>
  );
}
