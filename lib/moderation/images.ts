// Image moderation providers (SPEC 3.3). 'google-vision' asks Cloud Vision for
// SafeSearch likelihoods and faces. 'local' is what can honestly be done offline:
// it decodes the image, checks its dimensions and that it is not blank. It is NOT
// a safety check and its verdicts say so (safety_checked = false).
import sharp from 'sharp';

export const LIKELIHOODS = ['UNKNOWN', 'VERY_UNLIKELY', 'UNLIKELY', 'POSSIBLE', 'LIKELY', 'VERY_LIKELY'] as const;
export type Likelihood = (typeof LIKELIHOODS)[number];

export interface ImageVerdict {
  provider: string;
  /** Whether the provider judged the content at all (false for the offline provider). */
  safetyChecked: boolean;
  adult: Likelihood | null;
  violence: Likelihood | null;
  racy: Likelihood | null;
  medical: Likelihood | null;
  spoof: Likelihood | null;
  faceCount: number | null;
  notes: string[];
}

export interface ImageModerationProvider {
  readonly name: string;
  /** Judges one image. Throws when the provider cannot answer (the job then retries). */
  check(image: Buffer): Promise<ImageVerdict>;
}

/** SPEC 3.3: VERY_LIKELY on any violation category removes the photo. */
export const REMOVAL_CATEGORIES = ['adult', 'violence', 'racy'] as const;

export function decideAction(verdict: ImageVerdict): 'kept' | 'removed' {
  return REMOVAL_CATEGORIES.some((category) => verdict[category] === 'VERY_LIKELY') ? 'removed' : 'kept';
}

const MIN_USEFUL_EDGE = 64;
/** Standard deviation (0-255 scale) below which every channel counts as one flat colour. */
const BLANK_STDEV = 2;

/** What decoding needs from the photos' processing queue (lib/photos/processing-queue.ts), which sits above. */
export interface BackgroundQueue {
  runBackground<T>(job: () => Promise<T>): Promise<T>;
}

export class LocalImageProvider implements ImageModerationProvider {
  readonly name = 'local';

  /** `queue`: decoding shares the uploads' cap on concurrent sharp jobs. */
  constructor(private readonly queue?: BackgroundQueue) {}

  check(image: Buffer): Promise<ImageVerdict> {
    const inspect = () => this.inspect(image);
    return this.queue ? this.queue.runBackground(inspect) : inspect();
  }

  private async inspect(image: Buffer): Promise<ImageVerdict> {
    const notes = ['local provider: not a safety check (no content or face analysis offline)'];
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    notes.push(`decoded ${width}x${height}`);
    if (Math.min(width, height) < MIN_USEFUL_EDGE) notes.push(`small: shorter edge under ${MIN_USEFUL_EDGE} px`);
    if (colourDeviations(data, info.channels).every((stdev) => stdev < BLANK_STDEV))
      notes.push('blank: a single flat colour');
    return {
      provider: this.name,
      safetyChecked: false,
      adult: null,
      violence: null,
      racy: null,
      medical: null,
      spoof: null,
      faceCount: null,
      notes,
    };
  }
}

/**
 * The sample standard deviation of each colour channel (alpha aside), over pixels decoded once.
 * sharp's stats() would decode again and compute much more (entropy, sharpness, dominant
 * colour): on a stored 1600 px photo, about 140 ms of CPU against about 90.
 */
function colourDeviations(pixels: Buffer, channels: number): number[] {
  const colours = Math.min(channels, 3);
  const sums = new Float64Array(colours);
  const squares = new Float64Array(colours);
  for (let offset = 0; offset < pixels.length; offset += channels) {
    for (let channel = 0; channel < colours; channel++) {
      const value = pixels[offset + channel]!;
      sums[channel]! += value;
      squares[channel]! += value * value;
    }
  }
  const count = pixels.length / channels;
  return Array.from(sums, (sum, channel) =>
    count > 1 ? Math.sqrt(Math.max(0, squares[channel]! - (sum * sum) / count) / (count - 1)) : 0,
  );
}

interface VisionAnnotateResponse {
  responses?: {
    safeSearchAnnotation?: Partial<Record<'adult' | 'spoof' | 'medical' | 'violence' | 'racy', string>>;
    faceAnnotations?: unknown[];
    error?: { code?: number; message?: string };
  }[];
}

const asLikelihood = (value: unknown): Likelihood | null =>
  typeof value === 'string' && (LIKELIHOODS as readonly string[]).includes(value) ? (value as Likelihood) : null;

export class GoogleVisionProvider implements ImageModerationProvider {
  readonly name = 'google-vision';

  constructor(private readonly settings: { endpoint: string; apiKey: string; timeoutMs?: number; maxFaces?: number }) {}

  async check(image: Buffer): Promise<ImageVerdict> {
    const url = new URL(this.settings.endpoint);
    url.searchParams.set('key', this.settings.apiKey);
    const body = {
      requests: [
        {
          image: { content: image.toString('base64') },
          features: [
            { type: 'SAFE_SEARCH_DETECTION' },
            { type: 'FACE_DETECTION', maxResults: this.settings.maxFaces ?? 20 },
          ],
        },
      ],
    };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 30_000),
      });
    } catch (error) {
      // Never the URL in a message: it carries the API key.
      throw new Error(`Cloud Vision unreachable: ${error instanceof Error ? error.name : 'error'}`);
    }
    if (!res.ok) throw new Error(`Cloud Vision answered HTTP ${res.status}`);
    const payload = (await res.json().catch(() => null)) as VisionAnnotateResponse | null;
    const first = payload?.responses?.[0];
    if (!first) throw new Error('Cloud Vision returned no response for the image');
    if (first.error)
      throw new Error(`Cloud Vision could not process the image (code ${first.error.code ?? 'unknown'})`);
    const safe = first.safeSearchAnnotation;
    if (!safe) throw new Error('Cloud Vision returned no SafeSearch annotation');
    return {
      provider: this.name,
      safetyChecked: true,
      adult: asLikelihood(safe.adult),
      violence: asLikelihood(safe.violence),
      racy: asLikelihood(safe.racy),
      medical: asLikelihood(safe.medical),
      spoof: asLikelihood(safe.spoof),
      faceCount: first.faceAnnotations?.length ?? 0,
      notes: [],
    };
  }
}

export function createImageModerationProvider(
  settings: {
    moderationProvider: 'local' | 'google-vision';
    googleVisionEndpoint: string;
    googleVisionApiKey: string | undefined;
  },
  queue?: BackgroundQueue,
): ImageModerationProvider {
  if (settings.moderationProvider === 'google-vision') {
    if (!settings.googleVisionApiKey) throw new Error('google-vision moderation needs GOOGLE_VISION_API_KEY');
    return new GoogleVisionProvider({ endpoint: settings.googleVisionEndpoint, apiKey: settings.googleVisionApiKey });
  }
  return new LocalImageProvider(queue);
}
