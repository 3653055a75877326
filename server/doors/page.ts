// What the pages the node server answers itself (the home page, the privacy policy, the terms)
// share: the body gzipped when the client takes it, as Next.js does for its pages, and for HTML a
// fresh CSP nonce for the inline stylesheet, so no shared cache may keep the answer.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { pageContentSecurityPolicy } from '@/lib/http/security-headers';

/** `text` as the request takes it (gzipped when it accepts gzip), with the headers that say so. */
export function encodedBody(req: IncomingMessage, text: string) {
  const raw = Buffer.from(text);
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? gzipSync(raw) : raw;
  return { body, headers: { 'content-length': body.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}) } };
}

/** Answers 200 with the HTML `render` makes for a fresh nonce (nothing after the head for HEAD). */
export function answerNoncedPage(
  req: IncomingMessage,
  res: ServerResponse,
  render: (nonce: string) => string,
  options: { https: boolean; vary?: string; headers?: Record<string, string> },
): true {
  const nonce = randomBytes(16).toString('base64');
  const { body, headers } = encodedBody(req, render(nonce));
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    ...headers,
    vary: options.vary ?? 'Accept-Encoding',
    ...options.headers,
    'content-security-policy': pageContentSecurityPolicy(nonce, options.https),
    // Each answer carries its own nonce: no shared cache may keep it.
    'cache-control': 'private, no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
