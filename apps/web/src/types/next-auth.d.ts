import type { DefaultSession } from 'next-auth';

declare module 'next-auth' {
  /** The session exposes only who is signed in; roles are resolved per request on the server. */
  interface Session {
    user: { id: string; email: string | null };
    expires: DefaultSession['expires'];
  }

  /** What `authorize` returns for a right password: with the session version a new session carries. */
  interface User {
    sessionVersion?: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    /** The user's session version at sign-in (`User.sessionVersion`); the session ends once it moves on. */
    sv?: number;
  }
}
