import type { Db } from '@looplane/db';

export interface OidcIdentity {
  /** The issuer URL: identities are unique per (issuer, subject). */
  provider: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * Maps an SSO identity to a Looplane user, or null (sign-in refused).
 * A known (issuer, subject) pair signs in its linked user; otherwise the identity is linked to the
 * user with the same *verified* email. SSO creates a user only for a verified email that a team
 * invited (a pending, unexpired invitation): that is how an invitee without an account signs up;
 * they then accept the invitation like anyone else.
 */
export async function linkOidcIdentity(db: Db, identity: OidcIdentity): Promise<string | null> {
  const known = await db.userIdentity.findUnique({
    where: { provider_subject: { provider: identity.provider, subject: identity.subject } },
    include: { user: { select: { disabledAt: true } } },
  });
  if (known) return known.user.disabledAt ? null : known.userId;

  if (!identity.email || !identity.emailVerified) return null;
  const email = identity.email.trim().toLowerCase();
  const user = (await db.user.findUnique({ where: { email } })) ?? (await signUpInvited(db, email));
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

/** A new user for an address some team invited (pending, unexpired), or null. A concurrent sign-up wins cleanly. */
async function signUpInvited(db: Db, email: string): Promise<{ id: string; disabledAt: Date | null } | null> {
  const invited = await db.teamInvitation.count({ where: { email, status: 'pending', expiresAt: { gt: new Date() } } });
  if (invited === 0) return null;
  return db.user.upsert({ where: { email }, create: { email }, update: {}, select: { id: true, disabledAt: true } });
}
