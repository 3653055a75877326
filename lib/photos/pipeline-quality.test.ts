// Issue 34 made the pipeline about three times cheaper. These tests hold it to "looks the
// same" on real photos (fixtures/SOURCES.md), against the pipeline as it was (pipeline-before.ts).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeResized, PHOTO_LIMITS, processPhoto, readHeader } from './image';
import { processPhotoAsBefore } from '@/e2e/support/photos/pipeline-before';
import { FIXTURE_PHOTOS, readFixturePhoto, ssimOf } from '@/e2e/support/photos/test-photos';

const THUMBNAIL = {
  width: PHOTO_LIMITS.thumbnailEdge,
  height: PHOTO_LIMITS.thumbnailEdge,
  fit: 'cover',
  position: sharp.strategy.attention,
  withoutEnlargement: true,
} as const;

// Full-resolution SSIM in JavaScript over 2 MP images takes seconds on a busy machine.
const SLOW = 120_000;

describe('the photo pipeline on real photos', () => {
  it.each(Object.entries(FIXTURE_PHOTOS))(
    '%s: looks the same as before, at the same sizes',
    async (_name, file) => {
      const bytes = readFixturePhoto(file);
      const now = await processPhoto(bytes, 'image/jpeg');
      const before = await processPhotoAsBefore(bytes);
      expect(now.image).toMatchObject({ width: before.image.width, height: before.image.height });
      expect(now.thumbnail).toMatchObject({ width: before.thumbnail.width, height: before.thumbnail.height });

      // The truth both are lossy copies of: the resized pixels before any WEBP.
      const pixels = await decodeResized(bytes, { srgbProfile: false });
      const lossless = () =>
        sharp(pixels.data, {
          raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels },
        });

      const standard = await ssimOf(now.image.data, before.image.data, 'standard');
      const fullNow = await ssimOf(now.image.data, lossless(), 'full');
      const fullBefore = await ssimOf(before.image.data, lossless(), 'full');
      // Before, the thumbnail was cut from the stored WEBP (its artefacts twice over); now from
      // the clean pixels. Both are held to the thumbnail cut without any lossy step.
      const thumbNow = await ssimOf(now.thumbnail.data, lossless().resize(THUMBNAIL), 'full');
      const thumbBefore = await ssimOf(before.thumbnail.data, lossless().resize(THUMBNAIL), 'full');
      console.log(
        `${file}: image SSIM to before ${standard.toFixed(4)}; to lossless (full resolution) ` +
          `${fullBefore.toFixed(4)} before, ${fullNow.toFixed(4)} now; ${before.image.data.length} -> ` +
          `${now.image.data.length} bytes; thumbnail to lossless ${thumbBefore.toFixed(4)} -> ${thumbNow.toFixed(4)}`,
      );
      expect(standard).toBeGreaterThanOrEqual(0.98);
      expect(fullNow).toBeGreaterThanOrEqual(fullBefore - 0.005);
      expect(thumbNow).toBeGreaterThanOrEqual(thumbBefore - 0.005);
    },
    SLOW,
  );

  it.each([FIXTURE_PHOTOS.shop, FIXTURE_PHOTOS.book])(
    '%s: skipping its sRGB profile changes no pixel',
    async (file) => {
      const bytes = readFixturePhoto(file);
      expect(await readHeader(bytes)).toMatchObject({ srgbProfile: true });
      const [skipped, converted] = await Promise.all([
        decodeResized(bytes, { srgbProfile: true }),
        decodeResized(bytes, { srgbProfile: false }),
      ]);
      expect(skipped.info).toEqual(converted.info);
      expect(skipped.data.equals(converted.data)).toBe(true);
    },
    SLOW,
  );

  it(
    'turns a photo upright by its EXIF orientation and keeps none of its metadata',
    async () => {
      const bytes = readFixturePhoto(FIXTURE_PHOTOS.curies);
      expect(await sharp(bytes).metadata()).toMatchObject({ orientation: 6, width: 700, height: 840 });
      const { image, thumbnail } = await processPhoto(bytes, 'image/jpeg');
      expect(image).toMatchObject({ width: 840, height: 700 });
      const upright = sharp(bytes).autoOrient();
      expect(await ssimOf(image.data, upright.clone(), 'standard')).toBeGreaterThanOrEqual(0.98);
      expect(await ssimOf(image.data, upright.clone().rotate(180), 'standard')).toBeLessThan(0.5);
      for (const output of [image.data, thumbnail.data]) {
        const meta = await sharp(output).metadata();
        expect(meta.format).toBe('webp');
        expect([meta.exif, meta.xmp, meta.iptc, meta.icc, meta.orientation]).toEqual(Array(5).fill(undefined));
      }
    },
    SLOW,
  );

  it(
    "drops a phone's EXIF block (make, model, GPS tags) and an embedded sRGB profile",
    async () => {
      const bytes = readFixturePhoto(FIXTURE_PHOTOS.cat);
      expect(bytes.includes(Buffer.from('moto g(9) plus'))).toBe(true);
      const { image, thumbnail } = await processPhoto(bytes, 'image/jpeg');
      for (const output of [image.data, thumbnail.data]) {
        expect(output.includes(Buffer.from('motorola'))).toBe(false);
        expect((await sharp(output).metadata()).exif).toBeUndefined();
      }
      const tagged = readFixturePhoto(FIXTURE_PHOTOS.shop);
      expect(await readHeader(tagged)).toMatchObject({ srgbProfile: true });
      expect((await sharp((await processPhoto(tagged, 'image/jpeg')).image.data).metadata()).icc).toBeUndefined();
    },
    SLOW,
  );
});
