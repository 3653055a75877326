import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSecurityHeaders } from './default-headers';

describe('sendSecurityHeaders', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      sendSecurityHeaders(res, { https: req.url === '/https' });
      if (req.url === '/own-csp') {
        res.setHeader('content-security-policy', "default-src 'self'");
        res.setHeader('referrer-policy', 'same-origin');
        res.end('page');
      } else if (req.url === '/write-head') {
        res.writeHead(200, { 'X-Frame-Options': 'SAMEORIGIN', 'content-type': 'text/plain' });
        res.end('explicit');
      } else if (req.url === '/raw-array') {
        res.writeHead(200, ['X-Content-Type-Options', 'nosniff', 'Content-Type', 'text/plain']);
        res.end('raw');
      } else {
        res.end('implicit');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('adds every header to an answer that set none (implicit writeHead)', async () => {
    const res = await fetch(`${base}/plain`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('adds HSTS when the site is https', async () => {
    expect((await fetch(`${base}/https`)).headers.get('strict-transport-security')).toMatch(/max-age=/);
  });

  it('never replaces what the answer set itself, by setHeader or in writeHead (object or raw array)', async () => {
    const own = await fetch(`${base}/own-csp`);
    expect(own.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(own.headers.get('referrer-policy')).toBe('same-origin');
    expect(own.headers.get('x-frame-options')).toBe('DENY');

    const explicit = await fetch(`${base}/write-head`);
    expect(explicit.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(explicit.headers.get('x-content-type-options')).toBe('nosniff');

    const raw = await fetch(`${base}/raw-array`);
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('x-frame-options')).toBe('DENY');
  });
});
