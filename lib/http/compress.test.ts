import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, COMPRESS_THRESHOLD_BYTES, compressedAnswer, withVary } from './compress';

const json = {
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'no-store',
  contentEncoding: null,
  vary: null,
};
const big = Buffer.from(JSON.stringify({ text: 'x'.repeat(COMPRESS_THRESHOLD_BYTES) }));

describe("the gzip of Next.js's server, for our own doors (lib/http/compress.ts)", () => {
  it('gzips a JSON body of 1 KB or more for a client that accepts gzip, and says Vary', async () => {
    const answer = await compressedAnswer({ method: 'GET', acceptEncoding: 'gzip, deflate, br' }, json, big);
    expect(answer.headers).toEqual({ vary: 'Accept-Encoding', 'content-encoding': 'gzip' });
    expect(gunzipSync(answer.body).equals(big)).toBe(true);
  });

  it('sends small bodies, HEAD, refused gzip and no-transform as they are', async () => {
    const small = Buffer.from('{"ok":true}');
    expect(await compressedAnswer({ method: 'GET', acceptEncoding: 'gzip' }, json, small)).toEqual({
      body: small,
      headers: { vary: 'Accept-Encoding' },
    });
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0', 'br', '*;q=0'])
      expect((await compressedAnswer({ method: 'GET', acceptEncoding }, json, big)).body).toBe(big);
    expect((await compressedAnswer({ method: 'HEAD', acceptEncoding: 'gzip' }, json, big)).body).toBe(big);
    const noTransform = { ...json, cacheControl: 'private, no-transform' };
    expect(await compressedAnswer({ method: 'GET', acceptEncoding: 'gzip' }, noTransform, big)).toEqual({
      body: big,
      headers: {},
    });
  });

  it('leaves types not worth compressing alone, and keeps an existing Vary', async () => {
    const png = { ...json, contentType: 'image/png' };
    expect((await compressedAnswer({ method: 'GET', acceptEncoding: 'gzip' }, png, big)).headers).toEqual({});
    expect(withVary('Authorization', 'Accept-Encoding')).toBe('Authorization, Accept-Encoding');
    expect(withVary('accept-encoding', 'Accept-Encoding')).toBe('accept-encoding');
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('deflate')).toBe(false);
  });
});
