import type { DefaultSession } from 'next-auth';

declare module 'next-auth' {
  /** The session exposes only who is signed in; roles are resolved per request on the server. */
  interface Session {
    user: { id: string; email: string | null };
    expires: DefaultSession['expires'];
  }
}
