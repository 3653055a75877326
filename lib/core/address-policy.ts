// Which addresses a server-side fetch may reach: public unicast only. Everything a
// request could use to reach us or our network (loopback, private, link-local and
// cloud metadata, CGNAT, multicast, documentation and translation ranges) is refused.
import net from 'node:net';

const blocked = new net.BlockList();
const V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. the 169.254.169.254 metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];
const V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: embeds an IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, incl. Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local (incl. AWS's fd00:ec2::254 metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];
for (const [address, prefix] of V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of V6) blocked.addSubnet(address, prefix, 'ipv6');

const MAPPED_V4 = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_V4_HEX = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** IPv4-mapped IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) is judged as the IPv4 address it carries. */
export function normalizeAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = net.isIP(bare);
  if (version === 4) return { address: bare, family: 'ipv4' };
  if (version !== 6) return null;
  const dotted = MAPPED_V4.exec(bare);
  if (dotted?.[1]) return { address: dotted[1], family: 'ipv4' };
  const hex = MAPPED_V4_HEX.exec(bare);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { address: bare.toLowerCase(), family: 'ipv6' };
}

/** True for any address that is not public unicast (unparseable input counts as not public). */
export function isNonPublicAddress(address: string): boolean {
  const normalized = normalizeAddress(address);
  if (!normalized) return true;
  return blocked.check(normalized.address, normalized.family);
}

export function isLoopbackAddress(address: string): boolean {
  const normalized = normalizeAddress(address);
  if (!normalized) return false;
  return normalized.family === 'ipv4' ? normalized.address.startsWith('127.') : normalized.address === '::1';
}
