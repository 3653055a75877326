import { offlinePageHtml } from '@/lib/web/offline-page';

// GET /offline – the service worker's offline page (lib/web/offline-page.ts): plain HTML, no
// framework. proxy.ts gives it its CSP and the nonce its style and script carry.
export function GET(request: Request): Response {
  return new Response(offlinePageHtml(request.headers.get('x-nonce') ?? ''), {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-robots-tag': 'noindex' },
  });
}
