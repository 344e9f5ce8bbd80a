import { verifyPassword, type Db } from '@looplane/db';

// A fixed hash so unknown emails cost the same scrypt time as known ones (no user enumeration).
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** A user whose password was right, with the session version a new session of theirs carries. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string | null;
  sessionVersion: number;
}

/** Checks an email + password sign-in; returns the user or null. Records the login time. */
export async function authenticateCredentials(db: Db, email: string, password: string): Promise<AuthenticatedUser | null> {
  if (email.length > 254 || password.length > 200) return null;
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || !user.passwordHash || user.disabledAt) return null;
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
}
