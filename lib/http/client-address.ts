// Which address a request comes from, as the key every per-address limit counts under.
// Pure functions; scripts/start.ts applies them to each request (lib/http/ip.ts stamps
// the result), so they are the only place a client address is ever derived.
import net from 'node:net';

/**
 * TRUST_PROXY: how many reverse proxies stand in front of the service. Unset or 0: none,
 * X-Forwarded-For is ignored. Anything but a whole number is refused at startup, because
 * a typo ("true", "yes") silently trusting the wrong hop would let clients pick their address.
 */
export function parseTrustProxy(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return 0;
  if (!/^\d{1,2}$/.test(value)) {
    throw new Error(
      `TRUST_PROXY must be the number of reverse proxies in front of the service (0 or unset: none, 1: one proxy such as nginx or a load balancer), got ${JSON.stringify(raw)}`,
    );
  }
  return Number(value);
}

/** The 8 groups of an IPv6 address in canonical (WHATWG URL) form, e.g. "2001:db8::1". */
function ipv6Groups(canonical: string): string[] {
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  if (tail === undefined) return left;
  const right = tail === '' ? [] : tail.split(':');
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/**
 * One address in a comparable form, or null when it is not an IP address at all.
 * Accepts what proxies and sockets write: surrounding spaces, "[v6]" and "[v6]:port",
 * "v4:port", a zone id ("fe80::1%eth0"). IPv4-mapped IPv6 ("::ffff:1.2.3.4") becomes the
 * IPv4 address. Any other IPv6 address becomes its /64 network ("2001:db8:1:2::/64"):
 * one subscriber is routinely given a whole /64 (RFC 6177) and can use any address in
 * it, so counting single IPv6 addresses would let one client be billions of clients.
 */
export function normalizeAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else {
    const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(value);
    if (v4WithPort) value = v4WithPort[1]!;
  }
  value = value.replace(/%[\w.-]+$/, ''); // an IPv6 zone id names a local interface, not a client
  const family = net.isIP(value);
  if (family === 4) return value;
  if (family !== 6) return null;
  const canonical = new URL(`http://[${value}]/`).hostname.slice(1, -1);
  const groups = ipv6Groups(canonical);
  if (groups.length !== 8) return null;
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const network = new URL(`http://[${groups.slice(0, 4).join(':')}::]/`).hostname.slice(1, -1);
  return `${network}/64`;
}

export interface AddressSources {
  /** The X-Forwarded-For header(s) as received (Node joins repeated headers with ", "). */
  forwardedFor: string | string[] | undefined;
  /** The TCP peer: our nearest proxy when there is one, else the client. */
  socketAddress: string | undefined;
  /** TRUST_PROXY. */
  trustedProxies: number;
}

/**
 * The client's address. Every proxy appends the address it received the request from to
 * X-Forwarded-For, so with n trusted proxies the n-th entry from the right is the one our
 * outermost proxy saw; everything left of it was written by the client and is ignored.
 * Too few entries (the request bypassed a proxy) or an entry that is not an IP address
 * fall back to the socket address.
 */
export function clientAddress({ forwardedFor, socketAddress, trustedProxies }: AddressSources): string {
  const fromSocket = normalizeAddress(socketAddress ?? '') ?? 'unknown';
  if (trustedProxies === 0) return fromSocket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const entries = header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length < trustedProxies) return fromSocket;
  return normalizeAddress(entries[entries.length - trustedProxies]!) ?? fromSocket;
}
