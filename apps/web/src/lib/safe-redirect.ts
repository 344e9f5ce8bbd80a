/**
 * Browsers do not read a redirect's target the way a string check does: they drop tabs and
 * newlines anywhere in a URL, read `\` as `/`, and take `//host` as another site, so
 * `/\t/evil.example` arrives as `//evil.example`. A target is therefore refused outright when it
 * holds any control character (C0, DEL, C1) or a backslash, and otherwise judged by a real URL
 * parse: it must stay on the origin, and its path must start with exactly one `/`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point: browsers drop some of them from URLs.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\\]/;

/** Stands in for the site's own origin where only the path is judged (any origin would do). */
const SELF = 'http://self.looplane.invalid';

/**
 * The same-origin path (with query and fragment, as a URL parser normalises them) that `value`
 * leads to when resolved against `origin`, or null when it could lead anywhere else.
 */
export function sameOriginPath(value: string, origin: string): string | null {
  if (UNSAFE_CHARACTER.test(value)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * A same-origin path to return to after sign-in: only a path (a single leading `/`, nothing that
 * names a scheme or a host); anything else, or anything {@link sameOriginPath} refuses, becomes `/`.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path?.startsWith('/') || path.startsWith('//')) return '/';
  return sameOriginPath(path, SELF) ?? '/';
}
