// The guard every outbound request of the server passes (photo URLs, OAuth client metadata, Web Push
// endpoints): https on port 443 only, no credentials in the URL, and every address the host resolves to must
// be public; the socket connects to exactly the address checked, so DNS rebinding cannot slip in between.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { isLoopbackAddress, isNonPublicAddress } from './address-policy';

export interface OutboundPolicy {
  /** Test only: loopback ports that may be fetched, over http too. Empty in production. */
  allowLoopbackPorts: readonly number[];
}

/** A URL or address the server must not contact (the message says why). */
export class ForbiddenTarget extends Error {}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Throws ForbiddenTarget unless `address` may be contacted for `url`. */
function assertAllowedAddress(address: string, url: URL, policy: OutboundPolicy): void {
  if (isLoopbackAddress(address) && policy.allowLoopbackPorts.includes(effectivePort(url))) return;
  if (isNonPublicAddress(address))
    throw new ForbiddenTarget(`${url.hostname} is or resolves to a private, loopback, link-local or reserved address`);
  if (url.protocol !== 'https:' || effectivePort(url) !== 443)
    throw new ForbiddenTarget('only https URLs on port 443 are fetched');
}

/** The checks that need no DNS: scheme, port, credentials, literal addresses. */
export function assertAllowedUrl(url: URL, policy: OutboundPolicy): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ForbiddenTarget('only https URLs are fetched');
  if (url.username || url.password) throw new ForbiddenTarget('URLs with credentials are not fetched');
  const port = effectivePort(url);
  const testException = policy.allowLoopbackPorts.includes(port);
  if (!testException && (url.protocol !== 'https:' || port !== 443))
    throw new ForbiddenTarget('only https URLs on port 443 are fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) assertAllowedAddress(host, url, policy);
}

/** A dns lookup for the socket that refuses the connection unless every resolved address is allowed. */
export function guardedLookup(url: URL, policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      try {
        if (addresses.length === 0) throw new ForbiddenTarget(`${hostname} has no address`);
        for (const entry of addresses) assertAllowedAddress(entry.address, url, policy);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
