// The photo pipeline as it was before issue 34, kept only to measure today's against
// (lib/photos/pipeline-quality.test.ts, npm run bench:photo). Never imported by the app.
// It decoded twice (the upload, then its own WEBP for the thumbnail), converted every
// embedded ICC profile, and encoded at libwebp's default effort 4.
import sharp from 'sharp';
import { PHOTO_LIMITS, type ProcessedImage } from '@/lib/photos/image';

const SHARP_INPUT = { limitInputPixels: PHOTO_LIMITS.maxInputPixels, failOn: 'error', pages: 1 } as const;

export async function processPhotoAsBefore(
  bytes: Buffer,
): Promise<{ image: ProcessedImage; thumbnail: ProcessedImage }> {
  await sharp(bytes, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
  const image = await sharp(bytes, SHARP_INPUT)
    .autoOrient()
    .resize({ width: PHOTO_LIMITS.maxEdge, height: PHOTO_LIMITS.maxEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer({ resolveWithObject: true });
  const thumbnail = await sharp(image.data)
    .resize({
      width: PHOTO_LIMITS.thumbnailEdge,
      height: PHOTO_LIMITS.thumbnailEdge,
      fit: 'cover',
      position: sharp.strategy.attention,
      withoutEnlargement: true,
    })
    .webp({ quality: 75 })
    .toBuffer({ resolveWithObject: true });
  return {
    image: { data: image.data, width: image.info.width, height: image.info.height },
    thumbnail: { data: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
  };
}
