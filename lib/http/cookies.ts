// Names of the cookies the web app sets. Secure (https) deployments use the __Secure-
// prefix, which browsers only accept over https with the Secure flag.
export function usesSecureCookies(publicBaseUrl: string): boolean {
  return publicBaseUrl.startsWith('https://');
}

export function sessionCookieName(secure: boolean): string {
  return `${secure ? '__Secure-' : ''}buddy.session`;
}

/** One cookie's value from a Cookie header, or undefined. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
