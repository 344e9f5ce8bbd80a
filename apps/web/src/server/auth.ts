import 'server-only';
import { authenticateCredentials } from '@looplane/api';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { OIDC_PROVIDER_ID } from '@/lib/oidc';
import { configureNextAuthOrigin, env, oidcConfigured, type Env } from '@/env';
import { db } from './db';
import { logger } from './logger';
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
 * next-auth configuration: JWT sessions that carry only the user id (`sub`) and email.
 * Roles are never put in the token; they are resolved from memberships on every request.
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
          if (!email || !password) return null;
          const user = await authenticateCredentials(db(), email, password);
          if (!user) logger().info({ email }, 'credentials sign-in refused');
          return user;
        },
      }),
      ...(oidc ? [oidc.provider] : []),
    ],
    callbacks: {
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
        const sub =
          account?.provider === OIDC_PROVIDER_ID && oidc
            ? await linkedUserId(db(), oidc.issuer, account.providerAccountId)
            : user.id;
        return { sub: sub ?? undefined, email: user.email ?? token.email };
      },
      session({ session, token }) {
        return { expires: session.expires, user: { id: token.sub ?? '', email: token.email ?? null } };
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
