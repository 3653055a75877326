// What a client may say about itself (issue 28): checked by oidc-provider's client schema
// for registrations, stored clients and client ID metadata documents alike.
// - Blind SSRF: metadata that makes the provider fetch a URL is refused, and every request
//   the provider makes anyway goes through the photoURL guard (public https on port 443,
//   every resolved address checked).
// - Phishing through device sign-in: only the pre-registered device client may use the
//   device grant, and no client may pass for this service by its name.
import type { lookup } from 'node:dns';
import { errors } from 'oidc-provider';
import { assertAllowedUrl, ForbiddenTarget, guardedLookup } from '../core/outbound-guard';
import { imitatesService } from './client-trust';
import { DEVICE_CLIENT_ID } from '../accounts/oauth-resources';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Client metadata that makes oidc-provider fetch a URL: the sector identifier document at
 * registration, a key set, request objects, logout and CIBA notifications. Those not
 * enabled here are listed too, so they are refused by name rather than silently dropped.
 */
export const FETCHED_CLIENT_FIELDS = [
  'sector_identifier_uri',
  'jwks_uri',
  'request_uris',
  'backchannel_logout_uri',
  'backchannel_client_notification_endpoint',
] as const;

/** The fields oidc-provider does not know while those features are off (so the schema keeps them for us). */
export const UNRECOGNIZED_FETCHED_FIELDS = [
  'request_uris',
  'backchannel_logout_uri',
  'backchannel_client_notification_endpoint',
];

/**
 * Throws invalid_client_metadata for what no client may say; while registering, also for
 * the device grant. A stored or fetched client that still names the device grant (one
 * registered before these rules) simply loses it.
 */
export function checkClientMetadata(metadata: Record<string, unknown>, registering: boolean): void {
  for (const field of FETCHED_CLIENT_FIELDS) {
    const value = metadata[field];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    throw new errors.InvalidClientMetadata(
      `${field} is not accepted: this server does not fetch URLs named by a client (register without it)`,
    );
  }
  if (metadata.client_id === DEVICE_CLIENT_ID) return;
  if (typeof metadata.client_name === 'string' && imitatesService(metadata.client_name))
    throw new errors.InvalidClientMetadata('client_name may not pass for Buddy Match: use the name of your own app');
  const grants = Array.isArray(metadata.grant_types) ? (metadata.grant_types as unknown[]) : [];
  if (!grants.includes(DEVICE_GRANT)) return;
  if (registering)
    throw new errors.InvalidClientMetadata(
      `the device grant is only for the pre-registered public client ${DEVICE_CLIENT_ID} (no registration needed)`,
    );
  metadata.grant_types = grants.filter((grant) => grant !== DEVICE_GRANT);
}

const NO_LOOPBACK = { allowLoopbackPorts: [] as number[] };

/**
 * oidc-provider's httpOptions: every outbound request it makes is held to the photoURL
 * rules. A URL refused without DNS (a literal private address, another port or scheme)
 * gets an aborted signal, so no connection is opened; a host name is resolved by the
 * guarded lookup, which refuses any private address.
 */
export function guardedHttpOptions(url: URL): { signal: AbortSignal; dnsLookup?: typeof lookup } {
  try {
    assertAllowedUrl(url, NO_LOOPBACK);
  } catch (refusal) {
    return { signal: AbortSignal.abort(refusal instanceof ForbiddenTarget ? refusal : new ForbiddenTarget('refused')) };
  }
  // oidc-provider's type asks for dns.lookup itself; a lookup function is what got calls.
  return { signal: AbortSignal.timeout(5_000), dnsLookup: guardedLookup(url, NO_LOOPBACK) as unknown as typeof lookup };
}
