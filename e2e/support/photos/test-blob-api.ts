// A local stand-in of the Vercel Blob API for the tests (test-only: never imported
// by the app). @vercel/blob honours VERCEL_BLOB_API_URL, so the real client library
// talks to this server: PUT /?pathname= stores, POST /delete deletes, and the
// returned public URLs are served from /public/<pathname>.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BlobApiStandIn {
  origin: string;
  /** The value for VERCEL_BLOB_API_URL. */
  apiUrl: string;
  objects: Map<string, { data: Buffer; contentType: string; cacheMaxAge: string | undefined }>;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[];
  close(): Promise<void>;
}

export async function startBlobApiStandIn(token: string): Promise<BlobApiStandIn> {
  const objects: BlobApiStandIn['objects'] = new Map();
  const requests: BlobApiStandIn['requests'] = [];
  let origin = '';
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', origin);
      if (req.method === 'GET' && url.pathname.startsWith('/public/')) {
        const object = objects.get(decodeURIComponent(url.pathname.slice('/public/'.length)));
        if (!object) {
          res.writeHead(404);
          res.end();
          return;
        }
        res.writeHead(200, {
          'content-type': object.contentType,
          'cache-control': `public, max-age=${object.cacheMaxAge}`,
        });
        res.end(object.data);
        return;
      }
      if (req.headers.authorization !== `Bearer ${token}`)
        return json(res, 403, { error: { code: 'forbidden', message: 'Access denied' } });
      if (req.method === 'PUT' && url.pathname === '/api/blob/') {
        const pathname = url.searchParams.get('pathname') ?? '';
        if (objects.has(pathname) && req.headers['x-allow-overwrite'] !== '1') {
          return json(res, 400, { error: { code: 'bad_request', message: 'This blob already exists' } });
        }
        const contentType = String(req.headers['x-content-type'] ?? 'application/octet-stream');
        objects.set(pathname, {
          data: body,
          contentType,
          cacheMaxAge: req.headers['x-cache-control-max-age'] as string | undefined,
        });
        const blobUrl = `${origin}/public/${pathname}`;
        return json(res, 200, {
          url: blobUrl,
          downloadUrl: `${blobUrl}?download=1`,
          pathname,
          contentType,
          contentDisposition: 'inline',
        });
      }
      if (req.method === 'POST' && url.pathname === '/api/blob/delete') {
        const { urls } = JSON.parse(body.toString()) as { urls: string[] };
        for (const u of urls) objects.delete(decodeURIComponent(new URL(u).pathname.slice('/public/'.length)));
        return json(res, 200, {});
      }
      json(res, 400, { error: { code: 'bad_request', message: `unexpected ${req.method} ${url.pathname}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    apiUrl: `${origin}/api/blob`,
    objects,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
