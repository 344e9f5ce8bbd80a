import 'server-only';
import { endSessionsOnSignOut, sessionClaimsFor, signInWithPassword } from '@looplane/api';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { OIDC_PROVIDER_ID } from '@/lib/oidc';
import { sameOriginPath } from '@/lib/safe-redirect';
import { configureNextAuthOrigin, env, oidcConfigured, type Env } from '@/env';
import { db } from './db';
import { logger } from './logger';
import { currentSignInRequest, signInLimiter } from './sign-in-limit';
import { linkedUserId, linkOidcIdentity } from '@looplane/api';

interface OidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

function oidcProvider(e: Env & { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string }) {
  const issuer = e.OIDC_ISSUER.replace(/\/$/, '');
  const provider: OAuthConfig<OidcProfile> = {
    id: OIDC_PROVIDER_ID,
    name: e.OIDC_NAME,
    type: 'oauth',
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: 'openid email profile' } },
    idToken: true,
    checks: ['pkce', 'state'],
    profile: (profile) => ({ id: profile.sub, email: profile.email ?? null, name: profile.name ?? null }),
  };
  return { issuer, provider };
}

let cached: NextAuthOptions | undefined;

/**
 * next-auth configuration: JWT sessions that carry only the user id (`sub`), email and the
 * user's session version at sign-in (`sv`); a token whose version is no longer current is signed
 * out (sign-out moves it on). Roles are never put in the token; they are resolved from memberships
 * on every request. Email + password sign-ins go through the sign-in limit.
 */
export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  const e = env();
  configureNextAuthOrigin(e);
  const oidc = oidcConfigured(e) ? oidcProvider(e) : null;

  cached = {
    secret: e.NEXTAUTH_SECRET,
    session: { strategy: 'jwt', maxAge: 7 * 24 * 60 * 60 },
    pages: { signIn: '/signin', error: '/signin' },
    providers: [
      CredentialsProvider({
        id: 'credentials',
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials) {
          const email = credentials?.email ?? '';
          const password = credentials?.password ?? '';
          if (!email) return null;
          const request = currentSignInRequest();
          const outcome = await signInWithPassword(
            {
              db: db(),
              limiter: signInLimiter(),
              onLockout: (info) => logger().warn(info, 'sign-in lockout started'),
            },
            { email, password, ip: request?.ip ?? null },
          ).catch((error: unknown) => {
            logger().error({ err: error, email }, 'credentials sign-in failed');
            // next-auth puts this message in the redirect URL: say nothing about our internals.
            throw new Error('SignInUnavailable');
          });
          if (outcome.kind === 'signed-in') return outcome.user;
          if (outcome.kind === 'locked-out') {
            if (request) request.lockedOut = { retryAfterSeconds: outcome.retryAfterSeconds };
            logger().info({ email, ip: request?.ip ?? null, retryAfterSeconds: outcome.retryAfterSeconds }, 'credentials sign-in refused: locked out');
          } else {
            logger().info({ email, ip: request?.ip ?? null }, 'credentials sign-in refused');
          }
          return null;
        },
      }),
      ...(oidc ? [oidc.provider] : []),
    ],
    callbacks: {
      // Where a sign-in or sign-out lands (`callbackUrl`): a path on this site, never anywhere else.
      // next-auth's own check lets control characters through and throws on what is not a URL.
      redirect({ url, baseUrl }) {
        return `${baseUrl}${sameOriginPath(url, baseUrl) ?? '/'}`;
      },
      async signIn({ account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID || !oidc) return true;
        const p = profile as OidcProfile | undefined;
        const userId = await linkOidcIdentity(db(), {
          provider: oidc.issuer,
          subject: account.providerAccountId,
          email: p?.email ?? null,
          emailVerified: p?.email_verified === true || p?.email_verified === 'true',
        });
        if (!userId) logger().info({ email: p?.email }, 'SSO sign-in refused: no linked user');
        return userId !== null;
      },
      async jwt({ token, user, account }) {
        if (!user) return token;
        // Credentials: `user.id` is ours. SSO: it is the issuer's subject; map it to our user.
        const sub = account?.provider === OIDC_PROVIDER_ID && oidc ? await linkedUserId(db(), oidc.issuer, account.providerAccountId) : user.id;
        const sv = typeof user.sessionVersion === 'number' ? user.sessionVersion : sub ? (await sessionClaimsFor(db(), sub))?.sessionVersion : undefined;
        return { sub: sub ?? undefined, email: user.email ?? token.email, sv };
      },
      session({ session, token }) {
        return { expires: session.expires, user: { id: token.sub ?? '', email: token.email ?? null } };
      },
    },
    events: {
      // The JWT itself cannot be taken back: ending the user's session version makes it worthless.
      async signOut({ token }) {
        if (typeof token?.sub !== 'string' || !Number.isSafeInteger(token.sv)) return;
        await endSessionsOnSignOut(db(), { userId: token.sub, sessionVersion: token.sv as number });
      },
    },
    logger: {
      error: (code, metadata) => logger().error({ code, metadata }, 'next-auth error'),
      warn: (code) => logger().warn({ code }, 'next-auth warning'),
      debug: () => undefined,
    },
  };
  return cached;
}
