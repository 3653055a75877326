// The image pipeline: the real type from the magic bytes, a pixel limit before any
// decoding, then sharp: one decode (shrunk on load) to auto-rotated pixels at the stored
// size with no metadata, from which the WEBP and the square thumbnail are both encoded.
// Only its output is ever stored or served.
import icc from 'icc';
import sharp, { type OutputInfo, type Sharp, type WebpOptions } from 'sharp';
import { LIMITS } from '../contract/schemas';
import { ApiError } from '../core/errors';
import { photoTooLarge, type PhotoMimeType } from './input';
import type { ProcessingQueue } from './processing-queue';

export const PHOTO_LIMITS = {
  /** Decoded input size. */
  maxBytes: LIMITS.photoBytes,
  /** Decompression-bomb guard: width x height of the input. */
  maxInputPixels: 40_000_000,
  /** Long edge of the stored image. */
  maxEdge: 1600,
  /** Edge of the square thumbnail. */
  thumbnailEdge: 256,
} as const;

export const STORED_MIME_TYPE = 'image/webp';

// A server holding many decoded images in sharp's cache helps nobody here.
sharp.cache(false);

/** The format the bytes really are (never the declared type). */
export function sniffImageType(bytes: Buffer): PhotoMimeType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

/** A friendlier name for common formats we refuse, for the error message. */
function describeOther(bytes: Buffer): string {
  const head = bytes.toString('latin1', 0, 16);
  if (head.startsWith('GIF8')) return 'a GIF';
  if (head.startsWith('BM')) return 'a BMP';
  if (head.startsWith('%PDF')) return 'a PDF';
  if (head.slice(4, 8) === 'ftyp') return 'a HEIC/AVIF/MP4 file';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'a TIFF';
  if (/^\s*</.test(head)) return 'markup (SVG/HTML/XML)';
  return 'not an image we recognise';
}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface ProcessedPhoto {
  image: ProcessedImage;
  thumbnail: ProcessedImage;
  mimeType: typeof STORED_MIME_TYPE;
  original: { mimeType: PhotoMimeType; bytes: number; width: number; height: number };
}

const SHARP_INPUT = { limitInputPixels: PHOTO_LIMITS.maxInputPixels, failOn: 'error', pages: 1 } as const;

/**
 * Checks and processes one photo. `field` names the request field in errors.
 * Throws ApiError (photo_too_large, photo_unsupported_format, photo_type_mismatch,
 * photo_too_many_pixels, photo_invalid) for anything that is not a usable photo.
 * With a `queue`, the sharp work waits for one of its slots (or is refused with 503
 * when its line is full); the cheap byte checks before it never wait.
 */
export async function processPhoto(
  bytes: Buffer,
  declaredType: string | null,
  field = 'photo',
  queue?: ProcessingQueue,
): Promise<ProcessedPhoto> {
  if (bytes.length > PHOTO_LIMITS.maxBytes) throw photoTooLarge(field);
  const actual = sniffImageType(bytes);
  if (!actual) {
    const what = describeOther(bytes);
    throw new ApiError('photo_unsupported_format', `The photo is ${what}; only JPEG, PNG and WEBP are accepted`, {
      fields: { [field]: 'must be a JPEG, PNG or WEBP image' },
    });
  }
  if (declaredType && declaredType.toLowerCase() !== actual) {
    throw new ApiError('photo_type_mismatch', `The photo was declared as ${declaredType} but is ${actual}`, {
      fields: { [field]: `declared ${declaredType}, actually ${actual}` },
    });
  }

  const decode = () => decodeAndResize(bytes, actual, field);
  return queue ? queue.run(decode) : decode();
}

async function decodeAndResize(bytes: Buffer, actual: PhotoMimeType, field: string): Promise<ProcessedPhoto> {
  let header: PhotoHeader;
  try {
    header = await readHeader(bytes);
  } catch (error) {
    throw decodeError(error, field);
  }
  const { width, height } = header;
  if (width * height > PHOTO_LIMITS.maxInputPixels) throw tooManyPixels(field, width, height);

  try {
    const resized = await decodeResized(bytes, header);
    const [image, thumbnail] = await Promise.all([encodeImage(resized), cutThumbnail(resized)]);
    return {
      image,
      thumbnail,
      mimeType: STORED_MIME_TYPE,
      original: { mimeType: actual, bytes: bytes.length, width, height },
    };
  } catch (error) {
    throw decodeError(error, field);
  }
}

/** What the header alone tells: the displayed size, and whether colour conversion can be skipped. */
export interface PhotoHeader {
  /** Width and height as displayed (after the EXIF rotation). */
  width: number;
  height: number;
  /** The embedded ICC profile is plain sRGB, so converting through it would change nothing. */
  srgbProfile: boolean;
}

/**
 * Reads the header only: no pixel is decoded, so the dimensions come without the pixel
 * limit (and can be reported); decoding still carries the limit as a second guard.
 */
export async function readHeader(bytes: Buffer): Promise<PhotoHeader> {
  const meta = await sharp(bytes, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) throw new Error('no dimensions');
  // EXIF orientations 5-8 swap the axes.
  const swapped = (meta.orientation ?? 1) >= 5;
  return {
    width: swapped ? meta.height : meta.width,
    height: swapped ? meta.width : meta.height,
    srgbProfile: meta.icc !== undefined && isPlainSrgb(meta.icc),
  };
}

// Most cameras and phones tag their JPEGs with one of these; any other profile (Display
// P3, Adobe RGB, an unreadable one) goes through sharp's colour conversion as before.
const PLAIN_SRGB = /^sRGB( IEC61966-2[.-]1| built-in)?$/i;

function isPlainSrgb(profile: Buffer): boolean {
  try {
    return PLAIN_SRGB.test(icc.parse(profile).description ?? '');
  } catch {
    return false;
  }
}

/** Pixels at the stored size, decoded once; both WEBPs are encoded from them. */
export interface ResizedPixels {
  data: Buffer;
  info: OutputInfo;
}

/**
 * The only decode. Resize is the first geometric step, so libvips shrinks a JPEG (and a
 * WEBP) while decoding it. autoOrient applies the EXIF rotation; raw pixels carry no
 * metadata, so EXIF (GPS above all), XMP, IPTC and comments are all dropped here. An
 * sRGB profile is skipped: converting sRGB to sRGB cost ~40% of the whole pipeline and
 * changed no pixel (lib/photos/pipeline-quality.test.ts).
 */
export async function decodeResized(bytes: Buffer, header: Pick<PhotoHeader, 'srgbProfile'>): Promise<ResizedPixels> {
  return sharp(bytes, { ...SHARP_INPUT, ignoreIcc: header.srgbProfile })
    .autoOrient()
    .resize({ width: PHOTO_LIMITS.maxEdge, height: PHOTO_LIMITS.maxEdge, fit: 'inside', withoutEnlargement: true })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
}

function fromPixels({ data, info }: ResizedPixels): Sharp {
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/**
 * WEBP settings. Effort 0 (libwebp's fastest method) encodes in a third of the time of the
 * default 4 at the same quality; files come out 5-20% larger on real photos.
 */
export const WEBP_OPTIONS = {
  image: { quality: 82, effort: 0 },
  thumbnail: { quality: 75, effort: 0 },
} as const satisfies Record<string, WebpOptions>;

export async function encodeImage(pixels: ResizedPixels): Promise<ProcessedImage> {
  const { data, info } = await fromPixels(pixels).webp(WEBP_OPTIONS.image).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The square thumbnail, cut from the resized pixels (not from the original, nor from the lossy WEBP). */
export async function cutThumbnail(pixels: ResizedPixels): Promise<ProcessedImage> {
  const { data, info } = await fromPixels(pixels)
    .resize({
      width: PHOTO_LIMITS.thumbnailEdge,
      height: PHOTO_LIMITS.thumbnailEdge,
      fit: 'cover',
      position: sharp.strategy.attention,
      withoutEnlargement: true,
    })
    .webp(WEBP_OPTIONS.thumbnail)
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function tooManyPixels(field: string, width?: number, height?: number): ApiError {
  const size = width && height ? ` (${width}x${height})` : '';
  return new ApiError(
    'photo_too_many_pixels',
    `The image has more than ${PHOTO_LIMITS.maxInputPixels / 1_000_000} megapixels${size}`,
    {
      fields: { [field]: 'too many pixels' },
    },
  );
}

function decodeError(error: unknown, field: string): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return tooManyPixels(field);
  return new ApiError('photo_invalid', 'The photo could not be decoded as an image (corrupt or truncated?)', {
    fields: { [field]: 'not a readable image' },
  });
}
