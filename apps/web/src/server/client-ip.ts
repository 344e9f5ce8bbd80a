/**
 * The client's address for audit rows and the sign-in limit. The server in front of Next
 * (`server/forwarded-headers.ts`) replaces `x-forwarded-for` on every request with one address:
 * the socket peer, or the client a trusted proxy (`LOOPLANE_TRUSTED_PROXIES`) forwarded for. So
 * the header is believed here, and nothing else (`x-real-ip` and the like are dropped there).
 */
export function clientIp(headers: Headers): string | null {
  const address = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return address ? address.slice(0, 64) : null;
}
