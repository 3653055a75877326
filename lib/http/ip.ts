// The client address, as stamped by our HTTP server (server.ts) from the socket,
// or from X-Forwarded-For when TRUST_PROXY=1. Clients cannot set this header:
// the server overwrites it on every request.
export const CLIENT_IP_HEADER = 'x-buddy-client-ip';

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || 'unknown';
}

/** The same, from the headers a server component or server action sees. */
export function clientIpFromHeaders(headers: Pick<Headers, 'get'>): string {
  return headers.get(CLIENT_IP_HEADER) || 'unknown';
}
