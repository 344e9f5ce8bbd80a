/** A same-origin path to return to after sign-in; anything else (absolute, `//host`) becomes `/`. */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path?.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  return path;
}
