import type { Db } from '@looplane/db';

export interface OidcIdentity {
  /** The issuer URL: identities are unique per (issuer, subject). */
  provider: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * Maps an SSO identity to an existing Looplane user, or null (sign-in refused).
 * A known (issuer, subject) pair signs in its linked user; otherwise the identity is linked to the
 * user with the same *verified* email. SSO never creates users: an admin adds members first.
 */
export async function linkOidcIdentity(db: Db, identity: OidcIdentity): Promise<string | null> {
  const known = await db.userIdentity.findUnique({
    where: { provider_subject: { provider: identity.provider, subject: identity.subject } },
    include: { user: { select: { disabledAt: true } } },
  });
  if (known) return known.user.disabledAt ? null : known.userId;

  if (!identity.email || !identity.emailVerified) return null;
  const user = await db.user.findUnique({ where: { email: identity.email.trim().toLowerCase() } });
  if (!user || user.disabledAt) return null;

  await db.userIdentity.upsert({
    where: { provider_subject: { provider: identity.provider, subject: identity.subject } },
    create: { userId: user.id, provider: identity.provider, subject: identity.subject },
    update: {},
  });
  return user.id;
}

/** The user an already linked identity belongs to. */
export async function linkedUserId(db: Db, provider: string, subject: string): Promise<string | null> {
  const row = await db.userIdentity.findUnique({
    where: { provider_subject: { provider, subject } },
    select: { userId: true },
  });
  return row?.userId ?? null;
}
