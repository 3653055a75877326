import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '@/e2e/support/http/test-helpers';
import { PHOTO_LIMITS, processPhoto, sniffImageType } from './image';
import {
  MIME,
  makeImage,
  makeJpegOfSize,
  makeJpegWithGps,
  makePixelBomb,
  readGps,
  type TestFormat,
} from '@/e2e/support/photos/test-images';
import { errorStatus } from '../http/error-response';

const FORMATS: TestFormat[] = ['jpeg', 'png', 'webp'];

describe('sniffImageType', () => {
  it.each(FORMATS)('recognises %s from its bytes', async (format) => {
    expect(sniffImageType(await makeImage(format, { width: 8, height: 8 }))).toBe(MIME[format]);
  });

  it.each([
    [
      'gif',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
    ],
    [
      'tiff',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .tiff()
          .toBuffer(),
    ],
    ['text', async () => Buffer.from('hello, not an image')],
    ['nothing', async () => Buffer.alloc(0)],
  ])('returns null for %s', async (_name, make) => {
    expect(sniffImageType(await make())).toBeNull();
  });
});

describe('processPhoto', () => {
  it.each(FORMATS)('re-encodes a %s to WEBP with a square thumbnail', async (format) => {
    const input = await makeImage(format, { width: 640, height: 480 });
    const result = await processPhoto(input, MIME[format]);
    expect(result.mimeType).toBe('image/webp');
    expect(result.original).toEqual({ mimeType: MIME[format], bytes: input.length, width: 640, height: 480 });
    const image = await sharp(result.image.data).metadata();
    expect(image).toMatchObject({ format: 'webp', width: 640, height: 480 });
    expect(result.image).toMatchObject({ width: 640, height: 480 });
    const thumb = await sharp(result.thumbnail.data).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('caps the long edge at 1600 px, keeping the aspect ratio', async () => {
    const input = await makeImage('png', { width: 3200, height: 1200 });
    const result = await processPhoto(input, null);
    expect(result.image).toMatchObject({ width: 1600, height: 600 });
    expect(result.thumbnail).toMatchObject({ width: 256, height: 256 });
  });

  it('does not enlarge small images, nor their thumbnails', async () => {
    const result = await processPhoto(await makeImage('png', { width: 1, height: 1 }), 'image/png');
    expect(result.image).toMatchObject({ width: 1, height: 1 });
    expect(result.thumbnail).toMatchObject({ width: 1, height: 1 });
  });

  it('applies the EXIF orientation and strips all metadata, GPS above all', async () => {
    const input = await makeJpegWithGps();
    expect(await readGps(input)).toMatchObject({ GPSLatitudeRef: 'N', GPSLongitudeRef: 'W' });
    expect((await sharp(input).metadata()).orientation).toBe(6);

    const result = await processPhoto(input, 'image/jpeg');
    const meta = await sharp(result.image.data).metadata();
    expect(meta).toMatchObject({ width: 200, height: 300 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(await readGps(result.image.data)).toBeNull();
    expect(result.image.data.includes(Buffer.from('TestCam'))).toBe(false);
    expect((await sharp(result.thumbnail.data).metadata()).exif).toBeUndefined();
    // The left half was red: after a 90° clockwise turn it is the top half.
    const { data } = await sharp(result.image.data)
      .extract({ left: 100, top: 10, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[1]).toBeLessThan(100);
  });

  it('refuses bytes that contradict the declared type', async () => {
    const error = await errorOf(processPhoto(await makeImage('png'), 'image/jpeg'));
    expect(error.code).toBe('photo_type_mismatch');
    expect(error.message).toMatch(/image\/png/);
  });

  it.each([
    [
      'a GIF',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#123' } })
          .gif()
          .toBuffer(),
      /GIF/,
    ],
    ['a text file', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /SVG/],
    ['random bytes', async () => Buffer.from('0123456789abcdef'), /not an image/],
  ])('refuses %s as an unsupported format', async (_name, make, message) => {
    const error = await errorOf(processPhoto(await make(), null));
    expect(error.code).toBe('photo_unsupported_format');
    expect(error.message).toMatch(message);
  });

  it('refuses a truncated image as invalid', async () => {
    const jpeg = await makeImage('jpeg', { width: 400, height: 300 });
    const error = await errorOf(processPhoto(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg'));
    expect(error.code).toBe('photo_invalid');
  });

  it('refuses more than 5 MB', async () => {
    const big = await makeJpegOfSize(PHOTO_LIMITS.maxBytes + 1);
    const error = await errorOf(processPhoto(big, 'image/jpeg'));
    expect(error.code).toBe('photo_too_large');
    expect(errorStatus(error)).toBe(413);
  });

  describe('decompression bombs', () => {
    let bomb: Buffer;
    beforeAll(async () => {
      bomb = await makePixelBomb();
    });

    it('refuses a small file with too many pixels before decoding it', async () => {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const before = process.memoryUsage().rss;
      const started = Date.now();
      const error = await errorOf(processPhoto(bomb, 'image/png'));
      expect(error.code).toBe('photo_too_many_pixels');
      expect(error.message).toMatch(/8000x6000/);
      // Decoding 48 MP would take ~150 MB and seconds; the header check takes neither.
      expect(Date.now() - started).toBeLessThan(1000);
      expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    });
  });
});
