// Where to send a person after sign-in (or sign-out): only ever a path on this site.
// Browsers forgive a lot in a Location header: they drop tabs and newlines anywhere
// ("/\t/evil.example" becomes "//evil.example", another host), read "\" as "/", and
// some layer may percent-decode once more. So a return path is refused unless it is a
// plain same-origin path in every decoding, and the safe default is used instead.

export const DEFAULT_RETURN_PATH = '/account';

/** C0 and C1 controls, DEL, every Unicode White_Space character, and the backslash. */
const FORBIDDEN_RAW = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;
/** The same, except a plain space, which may appear (encoded) in a query. */
const FORBIDDEN_DECODED = /[\u0000-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;
/** One slash, then anything but a second slash or a backslash. */
const SINGLE_SLASH_START = /^\/(?![/\\])/;
const MAX_DECODINGS = 5;

function isSafePath(path: string, origin: string): boolean {
  if (!SINGLE_SLASH_START.test(path) || FORBIDDEN_RAW.test(path)) return false;
  // Every layer of percent-decoding must still be a plain path ("/%2F" → "//", "%255C" → "\").
  let layer = path;
  for (let round = 0; round < MAX_DECODINGS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return false; // malformed percent-encoding: nobody can say what a later layer makes of it
    }
    if (decoded === layer) break;
    if (!SINGLE_SLASH_START.test(decoded) || FORBIDDEN_DECODED.test(decoded)) return false;
    layer = decoded;
  }
  if (/%[0-9a-f]{2}/i.test(layer)) return false; // still encoded after MAX_DECODINGS rounds: too deep to trust
  // Resolved as a browser would: the same origin, and a path that is not itself "//host" once dot segments go.
  let resolved: URL;
  try {
    resolved = new URL(path, origin);
  } catch {
    return false;
  }
  return resolved.origin === origin && !resolved.pathname.startsWith('//');
}

/**
 * The path to return to, or `fallback` when the value is missing or could lead anywhere
 * but a page of this site. Accepts only a path starting with a single "/"; refuses
 * control characters, whitespace and backslashes, raw or percent-encoded (a plain
 * encoded space is allowed), and anything that resolves off `origin`.
 */
export function safeReturnPath(
  value: string | string[] | undefined | null,
  fallback = DEFAULT_RETURN_PATH,
  origin = 'http://return-path.invalid',
): string {
  const path = Array.isArray(value) ? value[0] : value;
  return typeof path === 'string' && path.length <= 2048 && isSafePath(path, origin) ? path : fallback;
}

/**
 * Auth.js's redirect callback: its callbackUrl (a form field, a query parameter or the
 * callback-url cookie, all writable by a client) may be a path or an absolute URL of this
 * site; either way it must pass safeReturnPath, and the answer is absolute on `baseUrl`.
 */
export function safeRedirectUrl(url: string, baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  const path = url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
  return `${origin}${safeReturnPath(path, DEFAULT_RETURN_PATH, origin)}`;
}
