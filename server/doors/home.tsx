// GET / – the home page, answered in the node:http server (server/start.ts) before
// Next.js sees the request, as plain HTML rendered by React. Any App Router page loads
// Next.js's client runtime (about 130 KB of script, measured) even when it has nothing
// to hydrate; the home page needs no script at all, so it is rendered here, where
// react-dom/server is available (the App Router refuses it in route handlers). Same
// chrome and stylesheet as every page, and the server's security headers with this page's
// nonce CSP; other methods go on to Next.js.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToStaticMarkup } from 'react-dom/server';
import { HomePage } from '@/app/_components/home-page';
import { renderLlmsTxt } from '@/lib/guides';
import { SITE } from '@/app/_components/site-chrome';
import { StaticDocument } from '@/app/_components/static-document';
import { siteStylesheet } from '@/lib/http/inline-stylesheet';
import { targetPath } from '@/lib/http/request-target';
import { answerNoncedPage, encodedBody } from './page';

/**
 * The inline stylesheet is most of the page (28 KB before the body): a fetcher that keeps
 * only the first few KB would see nothing but CSS. So agents are told where their version
 * is before it: in a comment first thing, a Link header and a link element.
 */
export const AGENT_LINE =
  'For AI agents: this page in Markdown is /llms.txt (or send Accept: text/markdown); the API is listed at /api/v1/index.json, the MCP server is /api/mcp.';
const LLMS_TXT = { href: '/llms.txt', type: 'text/markdown' };
export const AGENT_LINK_HEADER = `<${LLMS_TXT.href}>; rel="alternate"; type="${LLMS_TXT.type}"`;

/** The home page's HTML and the CSP nonce its inline stylesheet carries. */
export function renderHomePage(nonce: string): string {
  return `<!DOCTYPE html>\n<!-- ${AGENT_LINE} -->\n${renderToStaticMarkup(
    <StaticDocument title={SITE.name} nonce={nonce} css={siteStylesheet()} alternate={LLMS_TXT}>
      <HomePage />
    </StaticDocument>,
  )}`;
}

/** The q value an Accept header gives `type` (exact match, or `text/*` and `* / *` when `wildcards`). */
function acceptQuality(accept: string, types: readonly string[], wildcards: boolean): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const matches = types.includes(range) || (wildcards && (range === '*/*' || range === 'text/*'));
    if (!matches) continue;
    const q = params.find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (Number.isFinite(quality)) best = Math.max(best, quality);
  }
  return best;
}

/** An agent that asks for Markdown (named, at least as high as HTML) gets llms.txt; browsers never name it. */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const markdown = acceptQuality(accept, ['text/markdown', 'text/x-markdown'], false);
  return markdown > 0 && markdown >= acceptQuality(accept, ['text/html', 'application/xhtml+xml'], true);
}

/** True when it answered (GET or HEAD on /, any query string). */
export function answerHomePage(req: IncomingMessage, res: ServerResponse, options: { https: boolean }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (targetPath(req.url ?? '/') !== '/') return false;
  if (prefersMarkdown(req.headers.accept)) {
    const { body, headers } = encodedBody(req, renderLlmsTxt());
    res.writeHead(200, {
      'content-type': 'text/markdown; charset=utf-8',
      ...headers,
      vary: 'Accept, Accept-Encoding',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'public, max-age=300',
      link: AGENT_LINK_HEADER,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  // The inline stylesheet compresses to a quarter.
  return answerNoncedPage(req, res, renderHomePage, {
    https: options.https,
    vary: 'Accept, Accept-Encoding',
    headers: { link: AGENT_LINK_HEADER },
  });
}
