// Real images for the tests, made with sharp (no binary fixtures). Test-only: never
// imported by the app.
import exifReader from 'exif-reader';
import sharp from 'sharp';

export type TestFormat = 'jpeg' | 'png' | 'webp';

export const MIME: Record<TestFormat, 'image/jpeg' | 'image/png' | 'image/webp'> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** A two-tone image (so it is not blank): `colour` on the left, white on the right. */
export async function makeImage(
  format: TestFormat,
  options: { width?: number; height?: number; colour?: string } = {},
): Promise<Buffer> {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const colour = options.colour ?? '#3366cc';
  const half = Math.max(1, Math.floor(width / 2));
  const base = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite([
    { input: { create: { width: half, height, channels: 3, background: colour } }, left: 0, top: 0 },
  ]);
  return base.toFormat(format).toBuffer();
}

/** One flat colour (for the blank check and for the Vision stand-in, which keys on colour). */
export async function makeFlatImage(format: TestFormat, colour: string, width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

export const TEST_GPS = { latitude: '51/1 30/1 2646/100', longitude: '0/1 7/1 3966/100' };

/**
 * A JPEG whose EXIF carries a GPS position, a camera make and orientation 6
 * (stored landscape 300x200, to be shown rotated 90° as portrait 200x300).
 */
export async function makeJpegWithGps(colour = '#cc3333'): Promise<Buffer> {
  const image = await makeImage('jpeg', { width: 300, height: 200, colour });
  return sharp(image)
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'TestCam', Model: 'GPS Tester' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: TEST_GPS.latitude,
        GPSLongitudeRef: 'W',
        GPSLongitude: TEST_GPS.longitude,
      },
    })
    .jpeg()
    .toBuffer();
}

/** The GPS block of an image's EXIF, or null when there is no EXIF or no GPS. */
export async function readGps(image: Buffer): Promise<Record<string, unknown> | null> {
  const { exif } = await sharp(image).metadata();
  if (!exif) return null;
  const parsed = exifReader(exif);
  return parsed.GPSInfo && Object.keys(parsed.GPSInfo).length > 0 ? (parsed.GPSInfo as Record<string, unknown>) : null;
}

/** A real PNG of more pixels than the pipeline accepts (a decompression bomb: tiny file, huge canvas). */
export async function makePixelBomb(): Promise<Buffer> {
  return sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/**
 * A real JPEG of exactly `targetBytes`: noise at 4:3 (it compresses badly) sized
 * from a measured bytes-per-pixel to land a little under the target, then padded
 * after the end-of-image marker, which decoders ignore.
 */
export async function makeJpegOfSize(targetBytes: number, quality = 100): Promise<Buffer> {
  const render = (pixels: number) => {
    const width = Math.max(16, Math.round(Math.sqrt((pixels * 4) / 3)));
    const height = Math.max(16, Math.round((width * 3) / 4));
    return sharp({
      create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .jpeg({ quality, chromaSubsampling: '4:4:4' })
      .toBuffer();
  };
  const probePixels = 400_000;
  const probe = await render(probePixels);
  let pixels = ((targetBytes * 0.95) / probe.length) * probePixels;
  let jpeg = await render(pixels);
  while (jpeg.length > targetBytes) {
    pixels *= 0.9;
    jpeg = await render(pixels);
  }
  return Buffer.concat([jpeg, Buffer.alloc(targetBytes - jpeg.length)]);
}
