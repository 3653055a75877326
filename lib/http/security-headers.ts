// Security headers. Pages get a per-request nonce CSP from proxy.ts (Next.js puts the
// nonce on its own scripts); every other answer gets a CSP that allows nothing. The server
// sets them all on every answer (lib/http/default-headers.ts), pages' CSP aside.

export function pageContentSecurityPolicy(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    // Profile photos may live on another https host (photoURL); previews are blob: URLs.
    "img-src 'self' https: data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The service worker (public/sw.js): 'strict-dynamic' makes script-src ignore 'self'.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const COMMON_SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';
