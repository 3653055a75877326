// GET / – the home page, answered in the node:http server (scripts/start.ts) before
// Next.js sees the request, as plain HTML rendered by React. Any App Router page loads
// Next.js's client runtime (about 130 KB of script, measured) even when it has nothing
// to hydrate; the home page needs no script at all, so it is rendered here, where
// react-dom/server is available (the App Router refuses it in route handlers). Same
// chrome, stylesheet and security headers as every page; other methods go on to Next.js.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToStaticMarkup } from 'react-dom/server';
import { HomePage } from '@/app/_components/home-page';
import { SITE } from '@/app/_components/site-chrome';
import { StaticDocument } from '@/app/_components/static-document';
import { siteStylesheet } from '../web/inline-stylesheet';
import { COMMON_SECURITY_HEADERS, HSTS_HEADER, pageContentSecurityPolicy } from '../web/security-headers';
import { targetPath } from './request-target';

/** The home page's HTML and the CSP nonce its inline stylesheet carries. */
export function renderHomePage(nonce: string): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <StaticDocument title={SITE.name} nonce={nonce} css={siteStylesheet()}>
      <HomePage />
    </StaticDocument>,
  )}`;
}

/** True when it answered (GET or HEAD on /, any query string). */
export function answerHomePage(req: IncomingMessage, res: ServerResponse, options: { https: boolean }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (targetPath(req.url ?? '/') !== '/') return false;
  const nonce = randomBytes(16).toString('base64');
  const html = Buffer.from(renderHomePage(nonce));
  // gzip as Next.js does for its pages (the inline stylesheet compresses to a quarter).
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? gzipSync(html) : html;
  res.writeHead(200, {
    ...COMMON_SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    vary: 'Accept-Encoding',
    'content-security-policy': pageContentSecurityPolicy(nonce, options.https),
    // Each answer carries its own nonce: no shared cache may keep it.
    'cache-control': 'private, no-cache',
    ...(options.https ? { 'strict-transport-security': HSTS_HEADER } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
