import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsBrotli, answerBrotliStatic, precompressStatic } from './static';

describe('acceptsBrotli', () => {
  it('reads Accept-Encoding, including q=0 refusals', () => {
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsBrotli('br;q=0.5')).toBe(true);
    expect(acceptsBrotli('gzip, br;q=0')).toBe(false);
    expect(acceptsBrotli('gzip')).toBe(false);
    expect(acceptsBrotli('brotli')).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});

describe('answerBrotliStatic', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-br-'));
  const staticDir = path.join(dir, 'static');
  let server: http.Server;
  let base = '';
  const script = 'console.log("hello from a chunk");'.repeat(50);

  beforeAll(async () => {
    fs.mkdirSync(path.join(staticDir, 'chunks'), { recursive: true });
    fs.writeFileSync(path.join(staticDir, 'chunks', 'a1.js'), script);
    fs.writeFileSync(path.join(staticDir, 'chunks', 'b2.js'), 'no brotli copy');
    fs.writeFileSync(path.join(dir, 'secret.js'), 'outside');
    fs.writeFileSync(path.join(dir, 'secret.js.br'), 'outside');
    expect(await precompressStatic(staticDir)).toBe(2);
    fs.rmSync(path.join(staticDir, 'chunks', 'b2.js.br'));
    server = http.createServer((req, res) => {
      if (answerBrotliStatic(req, res, staticDir)) return;
      res.statusCode = 299; // "Next.js answers"
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (urlPath: string, encoding = 'gzip, br') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${urlPath}`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });

  it('sends the brotli copy to a browser that takes br', async () => {
    const res = await get('/_next/static/chunks/a1.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('leaves the rest to Next.js: no br accepted, no copy, not a static file', async () => {
    expect((await get('/_next/static/chunks/a1.js', 'gzip')).status).toBe(299);
    expect((await get('/_next/static/chunks/b2.js')).status).toBe(299);
    expect((await get('/account')).status).toBe(299);
    expect((await get('/_next/static/chunks/a1.js?x=1')).status).toBe(299);
  });

  it('never reads outside the static folder', async () => {
    for (const attempt of [
      '/_next/static/../secret.js',
      '/_next/static/%2e%2e/secret.js',
      '/_next/static/chunks/..%2f..%2fsecret.js',
    ])
      expect((await get(attempt)).status, attempt).toBe(299);
  });
});
