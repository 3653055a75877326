// Which address a request comes from, as the key every per-address limit counts under.
// Pure functions; server/start.ts applies them to each request (lib/http/ip.ts stamps
// the result), so they are the only place a client address is ever derived.
import net from 'node:net';
import proxyaddr from 'proxy-addr';

/** TRUST_PROXY's named form: the proxies by address, and the matcher for them. */
export interface TrustedProxyAddresses {
  /** As configured, e.g. ["loopback", "10.0.0.0/8"]. */
  names: readonly string[];
  /** Whether an address (as a socket or X-Forwarded-For writes it, without port) is one of them. */
  trusts: (address: string) => boolean;
}

/** A count of proxies in front (0: none), or which addresses the proxies have. */
export type TrustProxy = number | TrustedProxyAddresses;

/** The names proxy-addr gives to reserved ranges (IPv4 and IPv6 both). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const TRUST_PROXY_USAGE =
  'TRUST_PROXY must be the number of reverse proxies in front of the service (0 or unset: none, 1: one proxy such as nginx or a load balancer) or their addresses, comma-separated (IP addresses, CIDRs such as 10.0.0.0/8, or loopback, linklocal, uniquelocal)';

/** An address or CIDR written strictly (net.isIP): proxy-addr alone would read "100" or "0x1" as IPv4. */
function isStrictAddressOrCidr(name: string): boolean {
  const [address = '', mask, extra] = name.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(mask);
}

/**
 * TRUST_PROXY: how many reverse proxies stand in front of the service, or which addresses
 * they have. Unset or 0: none, X-Forwarded-For is ignored. Anything else is refused at
 * startup, because a typo ("true", "yes") silently trusting the wrong hop would let
 * clients pick their address.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '') return 0;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const names = value.split(',').map((name) => name.trim().toLowerCase());
  const bad = names.find((name) => !RANGE_NAMES.includes(name) && !isStrictAddressOrCidr(name));
  if (bad !== undefined) {
    throw new Error(`${TRUST_PROXY_USAGE}; ${JSON.stringify(bad)} is none of these, in ${JSON.stringify(raw)}`);
  }
  const matcher = proxyaddr.compile(names);
  return { names, trusts: (address) => matcher(address, 0) };
}

/** What the server's startup log says of TRUST_PROXY. */
export function describeTrustProxy(trust: TrustProxy): number | string {
  return typeof trust === 'number' ? trust : trust.names.join(',');
}

/** Addresses a proxy of one's own may have: none of them is on the public internet. */
const privateAddress = proxyaddr.compile([...RANGE_NAMES, '100.64.0.0/10']);

/**
 * Whether the count form meets a peer on the public internet: then either no proxy is in
 * front (and every client can write the X-Forwarded-For entry it is counted under), or
 * the proxy is remote and better named by address. Worth one warning.
 */
export function countTrustsPublicPeer(trust: TrustProxy, socketAddress: string | undefined): boolean {
  if (typeof trust !== 'number' || trust === 0) return false;
  const address = bareAddress(socketAddress ?? '');
  return address !== null && !privateAddress(address, 0);
}

/** The 8 groups of an IPv6 address in canonical (WHATWG URL) form, e.g. "2001:db8::1". */
function ipv6Groups(canonical: string): string[] {
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  if (tail === undefined) return left;
  const right = tail === '' ? [] : tail.split(':');
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/** The IP address alone: without spaces, brackets, port or zone id; null when it is none. */
function bareAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else {
    const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(value);
    if (v4WithPort) value = v4WithPort[1]!;
  }
  value = value.replace(/%[\w.-]+$/, ''); // an IPv6 zone id names a local interface, not a client
  return net.isIP(value) === 0 ? null : value;
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
  const value = bareAddress(raw);
  if (value === null) return null;
  if (net.isIP(value) === 4) return value;
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
  trustedProxies: TrustProxy;
}

/**
 * The client's address. Every proxy appends the address it received the request from to
 * X-Forwarded-For. With n trusted proxies the n-th entry from the right is the one our
 * outermost proxy saw; everything left of it was written by the client and is ignored.
 * Too few entries (the request bypassed a proxy) or an entry that is not an IP address
 * fall back to the socket address. With proxies named by address, see fromNamedProxies.
 */
export function clientAddress({ forwardedFor, socketAddress, trustedProxies }: AddressSources): string {
  const fromSocket = normalizeAddress(socketAddress ?? '') ?? 'unknown';
  if (trustedProxies === 0) return fromSocket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const entries = header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (typeof trustedProxies !== 'number') return fromNamedProxies(entries, socketAddress, fromSocket, trustedProxies);
  if (entries.length < trustedProxies) return fromSocket;
  return normalizeAddress(entries[entries.length - trustedProxies]!) ?? fromSocket;
}

/**
 * Proxies named by address: the header counts only when the socket peer is one of them,
 * and then each entry from the right is believed while the hop that wrote it is trusted.
 * The client is the first entry that is not a trusted proxy (or the left-most, when all
 * are). An unreadable entry stops the walk at the hop that wrote it.
 */
function fromNamedProxies(
  entries: readonly string[],
  socketAddress: string | undefined,
  fromSocket: string,
  proxies: TrustedProxyAddresses,
): string {
  const peer = bareAddress(socketAddress ?? '');
  if (peer === null || !proxies.trusts(peer)) return fromSocket;
  let client = fromSocket;
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = bareAddress(entries[i]!);
    if (address === null) return client;
    client = normalizeAddress(address) ?? client;
    if (!proxies.trusts(address)) return client;
  }
  return client;
}
