import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFlatImage, makeImage } from '@/e2e/support/photos/test-images';
import { decideAction, GoogleVisionProvider, LocalImageProvider, type ImageVerdict, type Likelihood } from './images';

const verdict = (
  levels: Partial<Record<'adult' | 'violence' | 'racy' | 'medical' | 'spoof', Likelihood>>,
): ImageVerdict => ({
  provider: 'test',
  safetyChecked: true,
  adult: null,
  violence: null,
  racy: null,
  medical: null,
  spoof: null,
  faceCount: 0,
  notes: [],
  ...levels,
});

describe('decideAction', () => {
  it.each([
    [{ adult: 'VERY_LIKELY' }, 'removed'],
    [{ violence: 'VERY_LIKELY' }, 'removed'],
    [{ racy: 'VERY_LIKELY' }, 'removed'],
    [{ adult: 'LIKELY', violence: 'LIKELY', racy: 'LIKELY' }, 'kept'],
    [{ medical: 'VERY_LIKELY', spoof: 'VERY_LIKELY' }, 'kept'],
    [{ adult: 'VERY_UNLIKELY' }, 'kept'],
    [{}, 'kept'],
  ] as const)('%j → %s', (levels, action) => {
    expect(decideAction(verdict(levels))).toBe(action);
  });
});

describe('LocalImageProvider', () => {
  const provider = new LocalImageProvider();

  it('decodes the image and says it is not a safety check', async () => {
    const result = await provider.check(await makeImage('webp', { width: 300, height: 200 }));
    expect(result).toMatchObject({ provider: 'local', safetyChecked: false, adult: null, faceCount: null });
    expect(result.notes).toEqual([
      'local provider: not a safety check (no content or face analysis offline)',
      'decoded 300x200',
    ]);
    expect(decideAction(result)).toBe('kept');
  });

  it('notes blank and tiny images', async () => {
    const blank = await provider.check(await makeFlatImage('webp', '#808080'));
    expect(blank.notes).toContain('blank: a single flat colour');
    const tiny = await provider.check(await makeImage('png', { width: 10, height: 10 }));
    expect(tiny.notes.some((n) => n.startsWith('small'))).toBe(true);
    expect(tiny.notes).not.toContain('blank: a single flat colour');
  });

  // Noise of a known deviation, kept exactly by PNG: blank is judged per channel as sharp's stats() did.
  it.each([
    [1, true],
    [4, false],
  ])('calls an image with a deviation of %i blank: %s', async (sigma, blank) => {
    const png = await sharp({
      create: {
        width: 200,
        height: 100,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma },
      },
    })
      .png()
      .toBuffer();
    const deviations = (await sharp(png).stats()).channels.map((channel) => channel.stdev);
    expect(deviations.every((stdev) => stdev < 2)).toBe(blank);
    expect((await provider.check(png)).notes.includes('blank: a single flat colour')).toBe(blank);
  });

  it('fails on bytes that are not an image', async () => {
    await expect(provider.check(Buffer.from('nope'))).rejects.toThrow();
  });
});

// A local stand-in of Cloud Vision's images:annotate, answering what each test sets.
describe('GoogleVisionProvider', () => {
  const KEY = 'test-vision-key-123';
  let server: http.Server;
  let endpoint: string;
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  const received: { url: string; body: any }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString()) });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/images:annotate`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('asks for SafeSearch and faces with the key and returns the levels', async () => {
    answer = {
      status: 200,
      body: {
        responses: [
          {
            safeSearchAnnotation: {
              adult: 'VERY_LIKELY',
              spoof: 'UNLIKELY',
              medical: 'POSSIBLE',
              violence: 'VERY_UNLIKELY',
              racy: 'LIKELY',
            },
            faceAnnotations: [{ detectionConfidence: 0.9 }, { detectionConfidence: 0.8 }],
          },
        ],
      },
    };
    const image = await makeImage('webp', { width: 64, height: 48 });
    const result = await new GoogleVisionProvider({ endpoint, apiKey: KEY }).check(image);
    expect(result).toEqual({
      provider: 'google-vision',
      safetyChecked: true,
      adult: 'VERY_LIKELY',
      violence: 'VERY_UNLIKELY',
      racy: 'LIKELY',
      medical: 'POSSIBLE',
      spoof: 'UNLIKELY',
      faceCount: 2,
      notes: [],
    });
    expect(decideAction(result)).toBe('removed');
    const request = received.at(-1)!;
    expect(new URL(request.url, 'http://x').searchParams.get('key')).toBe(KEY);
    expect(request.body.requests).toHaveLength(1);
    expect(request.body.requests[0].features.map((f: { type: string }) => f.type)).toEqual([
      'SAFE_SEARCH_DETECTION',
      'FACE_DETECTION',
    ]);
    const sent = Buffer.from(request.body.requests[0].image.content, 'base64');
    expect(sent.equals(image)).toBe(true);
    expect((await sharp(sent).metadata()).format).toBe('webp');
  });

  it('counts no faces as 0', async () => {
    answer = {
      status: 200,
      body: {
        responses: [{ safeSearchAnnotation: { adult: 'VERY_UNLIKELY', violence: 'UNLIKELY', racy: 'UNLIKELY' } }],
      },
    };
    const result = await new GoogleVisionProvider({ endpoint, apiKey: KEY }).check(await makeImage('webp'));
    expect(result.faceCount).toBe(0);
    expect(decideAction(result)).toBe('kept');
  });

  it.each([
    ['an HTTP 500', { status: 500, body: { error: { message: 'backend' } } }, /HTTP 500/],
    [
      'a per-image error',
      { status: 200, body: { responses: [{ error: { code: 3, message: 'Bad image data.' } }] } },
      /could not process/,
    ],
    ['an empty answer', { status: 200, body: { responses: [] } }, /no response/],
    ['no SafeSearch', { status: 200, body: { responses: [{ faceAnnotations: [] }] } }, /no SafeSearch/],
  ])('throws on %s without revealing the key', async (_name, reply, message) => {
    answer = reply;
    const error = await new GoogleVisionProvider({ endpoint, apiKey: KEY })
      .check(await makeImage('webp'))
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('throws when the endpoint is unreachable, without revealing the key', async () => {
    const provider = new GoogleVisionProvider({ endpoint: 'http://127.0.0.1:1/v1/images:annotate', apiKey: KEY });
    const error = await provider.check(await makeImage('webp')).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/unreachable/);
    expect((error as Error).message).not.toContain(KEY);
  });
});
