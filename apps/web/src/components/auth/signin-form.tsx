'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { OIDC_PROVIDER_ID } from '@/lib/oidc';

/** What a refused sign-in says, by next-auth's `error` code (TooManyAttempts: a 429 from the sign-in limit). */
const SIGN_IN_ERRORS: Record<string, string> = {
  CredentialsSignin: 'Wrong email or password.',
  TooManyAttempts: 'Too many failed sign-ins: this account or address is locked for a while. Try again later.',
};

/** Email + password sign-in (and SSO when configured). Errors stay on the page. */
export function SignInForm(props: { callbackUrl: string; initialError: string | null; sso: { name: string } | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(props.initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        redirect: false,
      });
      if (!result?.ok) {
        setError(SIGN_IN_ERRORS[result?.error ?? ''] ?? 'Sign-in failed. Try again.');
        setPending(false);
        return;
      }
      router.replace(props.callbackUrl);
      router.refresh();
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    <div className="rounded-lg border border-border bg-surface p-5 shadow-sm">
      {/* method="post": a form sent before the page's script runs must never put the password in the URL. */}
      <form method="post" onSubmit={onSubmit} className="flex flex-col gap-3.5" data-testid="signin-form">
        <Field label="Email" htmlFor="signin-email">
          <Input id="signin-email" name="email" type="email" autoComplete="username" required autoFocus data-testid="signin-email" />
        </Field>
        <Field label="Password" htmlFor="signin-password">
          <Input id="signin-password" name="password" type="password" autoComplete="current-password" required data-testid="signin-password" />
        </Field>
        <InlineError error={error ? new Error(error) : null} testId="signin-error" />
        <Button type="submit" variant="primary" className="w-full justify-center" disabled={pending} data-testid="signin-submit">
          {pending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {props.sso ? (
        <>
          <div className="my-4 flex items-center gap-3 text-[11px] text-muted uppercase">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button className="w-full justify-center" data-testid="signin-sso" onClick={() => void signIn(OIDC_PROVIDER_ID, { callbackUrl: props.callbackUrl })}>
            Continue with {props.sso.name}
          </Button>
        </>
      ) : null}
    </div>
  );
}
