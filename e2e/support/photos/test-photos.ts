// The real photos committed for the pipeline's tests and benchmark (sources and licences in
// fixtures/SOURCES.md), and SSIM between two encoded images. Test and bench only.
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { ssim } from 'ssim.js';

export const FIXTURE_PHOTOS = {
  shop: 'shop-at-night-12mp.jpg',
  book: 'book-and-flowers-12mp.jpg',
  cat: 'cat-on-armchair-16mp.jpg',
  curies: 'curies-orientation-6.jpg',
} as const;

export function readFixturePhoto(name: string): Buffer {
  return fs.readFileSync(path.join(import.meta.dirname, '../../../lib/photos/fixtures', name));
}

async function pixels(image: Buffer | Sharp) {
  const pipeline = Buffer.isBuffer(image) ? sharp(image) : image;
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * Mean SSIM (Wang et al. 2004: 11x11 Gaussian window, on luma). `scale: 'standard'` first
 * downsamples as the authors' reference code does (to about 256 px on the short side: the
 * picture as a whole); `'full'` compares every pixel, where two encodes of one photo at
 * WEBP q82 already differ by ~0.02. Both images must be the same size.
 */
export async function ssimOf(a: Buffer | Sharp, b: Buffer | Sharp, scale: 'standard' | 'full'): Promise<number> {
  const [first, second] = await Promise.all([pixels(a), pixels(b)]);
  if (first.width !== second.width || first.height !== second.height) {
    throw new Error(`sizes differ: ${first.width}x${first.height} and ${second.width}x${second.height}`);
  }
  return ssim(first, second, { downsample: scale === 'standard' ? 'original' : false }).mssim;
}
