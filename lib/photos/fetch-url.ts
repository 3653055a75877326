// Fetching a photoURL on the caller's behalf is a server-side request forgery risk,
// so every hop is checked: https on port 443 only, no credentials in the URL, the
// host resolved here and every address it resolves to must be public (the socket
// connects to exactly the address that was checked, so DNS rebinding cannot slip
// in between), redirects re-checked the same way, one 10 s deadline for the whole
// fetch and the size cap enforced while streaming.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import { ApiError } from '../core/errors';
import { isLoopbackAddress, isNonPublicAddress } from '../core/address-policy';
import { photoTooLarge } from './input';

export interface FetchPolicy {
  /** Test only: loopback ports that may be fetched, over http too. Empty in production. */
  allowLoopbackPorts: readonly number[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

/** A URL or address the server must not contact (the message says why). */
export class ForbiddenTarget extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function forbidden(field: string, reason: string): ApiError {
  return new ApiError('photo_url_forbidden', `photoURL refused: ${reason}`, {
    fields: { [field]: reason },
  });
}

function fetchFailed(field: string, reason: string): ApiError {
  return new ApiError('photo_fetch_failed', `Could not download photoURL: ${reason}`, {
    fields: { [field]: reason },
  });
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Throws ForbiddenTarget unless `address` may be contacted for `url`. */
function assertAllowedAddress(address: string, url: URL, policy: Pick<FetchPolicy, 'allowLoopbackPorts'>): void {
  if (isLoopbackAddress(address) && policy.allowLoopbackPorts.includes(effectivePort(url))) return;
  if (isNonPublicAddress(address))
    throw new ForbiddenTarget(`${url.hostname} is or resolves to a private, loopback, link-local or reserved address`);
  if (url.protocol !== 'https:' || effectivePort(url) !== 443)
    throw new ForbiddenTarget('only https URLs on port 443 are fetched');
}

/** The checks that need no DNS: scheme, port, credentials, literal addresses. */
export function assertAllowedUrl(url: URL, policy: Pick<FetchPolicy, 'allowLoopbackPorts'>): void {
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
export function guardedLookup(url: URL, policy: Pick<FetchPolicy, 'allowLoopbackPorts'>): LookupFunction {
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

interface Hop {
  status: number;
  location: string | null;
  body: Buffer | null;
}

function requestOnce(url: URL, policy: FetchPolicy, signal: AbortSignal, field: string): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(url, policy),
      signal,
      headers: {
        accept: 'image/jpeg, image/png, image/webp',
        'accept-encoding': 'identity',
        'user-agent': 'BuddyMatch-PhotoFetcher/1.0',
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) || status !== 200) {
        response.resume();
        resolve({ status, location: response.headers.location ?? null, body: null });
        return;
      }
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (declared > policy.maxBytes) {
        request.destroy();
        reject(photoTooLarge(field, policy.maxBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          request.destroy();
          reject(photoTooLarge(field, policy.maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location: null, body: Buffer.concat(chunks) }));
      response.on('error', reject);
      response.on('aborted', () => reject(new Error('the connection closed early')));
    });
    request.end();
  });
}

/** Downloads the photo at `rawUrl`, or throws photo_url_forbidden / photo_fetch_failed / photo_too_large. */
export async function fetchPhotoUrl(rawUrl: string, policy: FetchPolicy, field = 'photoURL'): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw forbidden(field, 'not a valid URL');
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
  try {
    for (let hop = 0; hop <= policy.maxRedirects; hop++) {
      assertAllowedUrl(url, policy);
      const result = await requestOnce(url, policy, controller.signal, field);
      if (REDIRECTS.has(result.status)) {
        if (!result.location) throw fetchFailed(field, `HTTP ${result.status} without a Location`);
        try {
          url = new URL(result.location, url);
        } catch {
          throw fetchFailed(field, 'a redirect to an invalid URL');
        }
        continue;
      }
      if (result.status !== 200 || !result.body) throw fetchFailed(field, `the server answered HTTP ${result.status}`);
      return result.body;
    }
    throw fetchFailed(field, `more than ${policy.maxRedirects} redirects`);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof ForbiddenTarget) throw forbidden(field, error.message);
    if (controller.signal.aborted)
      throw fetchFailed(field, `no complete answer within ${Math.round(policy.timeoutMs / 1000)} s`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw fetchFailed(field, `the host ${url.hostname} was not found`);
    throw fetchFailed(field, code ? `connection failed (${code})` : 'connection failed');
  } finally {
    clearTimeout(timer);
  }
}
