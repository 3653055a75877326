// Responses for the public documents (well-known files, guides): readable from any
// origin, cacheable for a few minutes, always UTF-8.

const PUBLIC_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
};

export function publicDocument(body: string, contentType: string): Response {
  return new Response(body, {
    status: 200,
    headers: { ...PUBLIC_HEADERS, 'content-type': `${contentType}; charset=utf-8` },
  });
}

export function publicJson(value: unknown): Response {
  return publicDocument(JSON.stringify(value, null, 2), 'application/json');
}

/** CORS preflight for the public documents. */
export function publicOptions(): Response {
  return new Response(null, {
    status: 204,
    headers: { ...PUBLIC_HEADERS, 'access-control-allow-headers': '*', 'access-control-max-age': '86400' },
  });
}
