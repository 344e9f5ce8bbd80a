import NextAuth from 'next-auth';
import { authOptions } from '@/server/auth';

// Options are built on the first request: they need the validated environment.
function handler(req: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(authOptions())(req, context);
}

export { handler as GET, handler as POST };
