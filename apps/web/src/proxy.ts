import { NextResponse, type NextRequest } from 'next/server';
import { pageContentSecurityPolicy } from '@/lib/security-headers';

/**
 * Every page gets a Content-Security-Policy with a nonce of its own. Next reads the nonce from the
 * request's CSP header and puts it on the scripts it renders (and the root layout on the theme
 * script, from `x-nonce`); so pages render per request, which they do anyway (they read the
 * session). API routes are left out of the matcher: their bodies must reach the route handlers
 * unbuffered, and their own static policy comes from next.config.ts.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const policy = pageContentSecurityPolicy(nonce, {
    // A build-time constant Next inlines, not configuration: `next dev` needs eval and its HMR socket.
    development: process.env.NODE_ENV === 'development',
    // The server in front of Next believes x-forwarded-proto only from trusted proxies.
    https: request.headers.get('x-forwarded-proto') === 'https',
  });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  matcher: [{ source: '/((?!api|metrics|_next/static|_next/image|icon.svg|favicon.ico).*)' }],
};
