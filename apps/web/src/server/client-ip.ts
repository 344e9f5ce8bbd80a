/** The client's IP as reported by the reverse proxy in front of `next start`, or null. */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  const real = headers.get('x-real-ip')?.trim();
  return real ? real.slice(0, 64) : null;
}
