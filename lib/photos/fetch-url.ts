// Fetching a photoURL on the caller's behalf is a server-side request forgery risk, so every hop passes the
// outbound guard (lib/core/outbound-guard.ts: https on 443, public addresses only, no DNS rebinding), redirects
// are re-checked the same way, one 10 s deadline covers the whole fetch and the size cap holds while streaming.
import http from 'node:http';
import https from 'node:https';
import { ApiError } from '../core/errors';
import { assertAllowedUrl, ForbiddenTarget, guardedLookup, type OutboundPolicy } from '../core/outbound-guard';
import { photoTooLarge } from './input';

export interface FetchPolicy extends OutboundPolicy {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

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
