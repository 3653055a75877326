/** Only same-site paths may be returned to after sign-in (no open redirects). */
export function safeReturnPath(value: string | string[] | undefined, fallback = '/account'): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  return path;
}
