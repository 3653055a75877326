// Inline photos arrive as bare base64 or a base64 data URL. The size is checked
// from the encoded length before anything is decoded, so an oversized photo never
// costs a second buffer.
import { LIMITS, type PHOTO_MIME_TYPES } from '../contract/schemas';
import { ApiError } from '../core/errors';

export type PhotoMimeType = (typeof PHOTO_MIME_TYPES)[number];

export interface DecodedPhoto {
  bytes: Buffer;
  /** The type the caller claimed (mimeType field, or the data URL's type), if any. */
  declaredType: string | null;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/i;
// Standard and URL-safe alphabets; padding only at the end.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function photoTooLarge(field: string, maxBytes: number = LIMITS.photoBytes): ApiError {
  const mb = Math.round(maxBytes / (1024 * 1024));
  return new ApiError('photo_too_large', `The photo is larger than ${mb} MB`, {
    fields: { [field]: `at most ${mb} MB` },
  });
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('photo_invalid', message, { fields: { [field]: message } });
}

/** Decodes `photo` (bare base64 or data URL); `mimeType` is the separately declared type. */
export function decodeInlinePhoto(
  photo: string,
  mimeType: string | null | undefined,
  field = 'photo',
  maxBytes: number = LIMITS.photoBytes,
): DecodedPhoto {
  let payload = photo;
  let declaredType = mimeType ?? null;
  const dataUrl = DATA_URL.exec(photo.slice(0, 256));
  if (dataUrl) {
    const params = (dataUrl[2] ?? '').toLowerCase().split(';');
    if (!params.includes('base64'))
      throw invalid(field, 'A data URL photo must be base64-encoded (data:image/jpeg;base64,...)');
    const urlType = (dataUrl[1] ?? '').trim().toLowerCase();
    if (urlType) {
      if (declaredType && declaredType !== urlType) {
        throw new ApiError(
          'photo_type_mismatch',
          `mimeType ${declaredType} differs from the data URL type ${urlType}`,
          {
            fields: { [field]: 'declared types disagree' },
          },
        );
      }
      declaredType = urlType;
    }
    payload = photo.slice(dataUrl[0].length);
  }
  const canonical = decodeCanonicalBase64(payload, maxBytes);
  if (canonical) return { bytes: canonical, declaredType };

  // Line breaks (MIME-style wrapping) and spaces are tolerated.
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
  if (payload.length === 0) throw invalid(field, 'The photo is empty');

  if (decodedLengthOf(payload) > maxBytes) throw photoTooLarge(field, maxBytes);
  if (!BASE64.test(payload) || payload.length % 4 === 1) throw invalid(field, 'The photo is not valid base64');
  if (/[+/]/.test(payload) && /[-_]/.test(payload))
    throw invalid(field, 'The photo mixes the standard and URL-safe base64 alphabets');

  const bytes = Buffer.from(payload, 'base64');
  return { bytes, declaredType };
}

function decodedLengthOf(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

/**
 * The common case, checked without a regular expression: a payload that is exactly what
 * encoding its bytes gives back (one alphabet, padded as standard base64 is, nothing else) is
 * decoded as it is. The checks below cost ~30 ms of CPU on a 5 MB photo; this costs ~8.
 * Anything else (wrapped, unpadded, invalid) answers null and takes those checks.
 */
function decodeCanonicalBase64(payload: string, maxBytes: number): Buffer | null {
  if (payload.length === 0 || decodedLengthOf(payload) > maxBytes) return null;
  const urlSafe = payload.includes('-') || payload.includes('_');
  const bytes = Buffer.from(payload, 'base64');
  return bytes.toString(urlSafe ? 'base64url' : 'base64') === payload ? bytes : null;
}
