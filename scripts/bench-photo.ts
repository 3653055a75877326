// Benchmark of the photo pipeline (not a test): what an upload does — base64 decode,
// magic-byte and pixel checks, sharp (one decode to rotated, resized pixels without
// metadata; the WEBP and the thumbnail encoded from them) — on a synthetic ~5 MB 4000x3000
// JPEG (blurred noise: a worst case for the encoder) and on the real photos in
// lib/photos/fixtures. For each: CPU per step, the whole pipeline's CPU and wall time, and
// the pipeline as it was before issue 34 (e2e/support/photos/pipeline-before.ts) on the same input.
// Two floors beside them: decoding the input alone at 1/8 scale (the entropy decoding that no
// resize setting avoids; most of a progressive JPEG's cost), and what the photo's background
// moderation job (the offline 'local' provider) spends on the stored WEBP afterwards.
//   npm run bench:photo            (5 timed runs of each after one warm-up; BENCH_RUNS=n)
// The inputs are made or read first in this process; the measuring runs in a fresh child
// so its peak RSS (VmHWM) reflects processing only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cutThumbnail, decodeResized, encodeImage, PHOTO_LIMITS, processPhoto, readHeader } from '@/lib/photos/image';
import { LocalImageProvider } from '@/lib/moderation/images';
import { decodeInlinePhoto } from '@/lib/photos/input';
import { processPhotoAsBefore } from '@/e2e/support/photos/pipeline-before';
import { FIXTURE_PHOTOS, readFixturePhoto } from '@/e2e/support/photos/test-photos';

const WIDTH = 4000;
const HEIGHT = 3000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** A photo-like 12 MP JPEG just under 5 MB: blurred noise (texture) at a quality found by bisection. */
async function makeBenchJpeg(): Promise<Buffer> {
  const texture = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  })
    .blur(0.6)
    .raw()
    .toBuffer();
  const encode = (quality: number) =>
    sharp(texture, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  let low = 40;
  let high = 100;
  let best = await encode(low);
  while (low <= high) {
    const quality = Math.floor((low + high) / 2);
    const jpeg = await encode(quality);
    if (jpeg.length <= 5_000_000) {
      best = jpeg;
      low = quality + 1;
    } else {
      high = quality - 1;
    }
  }
  return best;
}

function peakRssMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU (all threads: libvips works off the main thread) and wall milliseconds of one call. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ cpu: number; wall: number; value: T }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const value = await fn();
  const cpu = process.cpuUsage(cpuBefore);
  return { cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - started, value };
}

const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);

async function measureOne(name: string, bytes: Buffer) {
  const base64 = bytes.toString('base64');
  const steps: Record<string, number[]> = {
    base64: [],
    header: [],
    decode_resize: [],
    encode_webp: [],
    thumbnail: [],
    floor_decode_eighth: [],
    moderation_job: [],
  };
  const total = { cpu: [] as number[], wall: [] as number[] };
  const before = { cpu: [] as number[], wall: [] as number[] };
  let output = { bytes: 0, width: 0, height: 0, thumbnail_bytes: 0 };
  let outputBefore = 0;
  for (let run = 0; run <= RUNS; run++) {
    // The whole pipeline as an upload runs it (the two encodes side by side).
    const whole = await timed(() => {
      const { bytes: decoded, declaredType } = decodeInlinePhoto(base64, 'image/jpeg');
      return processPhoto(decoded, declaredType);
    });
    // Each step alone, one after another, for where the CPU goes.
    const b64 = await timed(() => decodeInlinePhoto(base64, 'image/jpeg'));
    const header = await timed(() => readHeader(b64.value.bytes));
    const pixels = await timed(() => decodeResized(b64.value.bytes, header.value));
    const image = await timed(() => encodeImage(pixels.value));
    const thumbnail = await timed(() => cutThumbnail(pixels.value));
    const old = await timed(() => processPhotoAsBefore(decodeInlinePhoto(base64, 'image/jpeg').bytes));
    const eighth = await timed(() =>
      sharp(bytes, { ignoreIcc: true })
        .resize({ width: 600, height: 600, fit: 'inside', kernel: 'nearest' })
        .raw()
        .toBuffer(),
    );
    const moderation = await timed(() => new LocalImageProvider().check(whole.value.image.data));
    if (run === 0) continue; // warms up libvips
    total.cpu.push(whole.cpu);
    total.wall.push(whole.wall);
    before.cpu.push(old.cpu);
    before.wall.push(old.wall);
    for (const [step, { cpu }] of Object.entries({
      base64: b64,
      header,
      decode_resize: pixels,
      encode_webp: image,
      thumbnail,
      floor_decode_eighth: eighth,
      moderation_job: moderation,
    }))
      steps[step]!.push(cpu);
    output = {
      bytes: whole.value.image.data.length,
      width: whole.value.image.width,
      height: whole.value.image.height,
      thumbnail_bytes: whole.value.thumbnail.data.length,
    };
    outputBefore = old.value.image.data.length;
  }
  const original = await sharp(bytes).metadata();
  return {
    input: `${name}: ${original.width}x${original.height} (${(((original.width ?? 0) * (original.height ?? 0)) / 1e6).toFixed(1)} MP), ${bytes.length} bytes`,
    cpu_ms_per_step: Object.fromEntries(Object.entries(steps).map(([step, values]) => [step, median(values)])),
    cpu_ms: { now: median(total.cpu), before: median(before.cpu) },
    wall_ms: { now: median(total.wall), before: median(before.wall) },
    output: { ...output, bytes_before: outputBefore },
  };
}

async function measure(file: string): Promise<void> {
  const inputs: [string, Buffer][] = [
    ['synthetic noise', fs.readFileSync(file)],
    ...Object.values(FIXTURE_PHOTOS).map((name): [string, Buffer] => [name, readFixturePhoto(name)]),
  ];
  const baseline = process.memoryUsage().rss / 1024 / 1024;
  const results = [];
  for (const [name, bytes] of inputs) results.push(await measureOne(name, bytes));
  const summary = {
    runs: RUNS,
    // CPU time (all threads) is less sensitive than wall time to other load on the machine.
    load_average_1m: Number(os.loadavg()[0]!.toFixed(1)),
    rss_mb: { before: Math.round(baseline), peak_vmhwm: Math.round(peakRssMb()) },
    cpus: os.cpus().length,
    sharp_concurrency: sharp.concurrency(),
    limits: PHOTO_LIMITS,
  };
  process.stdout.write(`${JSON.stringify({ results, ...summary }, null, 2)}\n`);
  // The same, one line per photo: what an upload costs now and before, and what that allows.
  const cores = os.availableParallelism();
  process.stdout.write(`\nCPU per photo (load average ${summary.load_average_1m}, ${cores} cores):\n`);
  for (const { input, cpu_ms, cpu_ms_per_step } of results) {
    const perSecond = (ms: number) => ((cores * 1000) / ms).toFixed(1);
    const withJob = cpu_ms.now + cpu_ms_per_step.moderation_job!;
    process.stdout.write(
      `  ${input.split(':')[0]}: before ${cpu_ms.before} ms, now ${cpu_ms.now} ms ` +
        `(${perSecond(cpu_ms.before)} -> ${perSecond(cpu_ms.now)} photos/s on ${cores} cores by CPU; ` +
        `with the moderation job ${withJob} ms, ${perSecond(withJob)}/s); ` +
        `decode floor at 1/8 scale ${cpu_ms_per_step.floor_decode_eighth} ms\n`,
    );
  }
}

async function main(): Promise<void> {
  const measureIndex = process.argv.indexOf('--measure');
  if (measureIndex > 0) return measure(process.argv[measureIndex + 1]!);
  const jpeg = await makeBenchJpeg();
  const file = path.join(os.tmpdir(), `bench-photo-${process.pid}.jpg`);
  fs.writeFileSync(file, jpeg);
  process.stdout.write(`Made a ${WIDTH}x${HEIGHT} JPEG of ${jpeg.length} bytes; measuring in a fresh process…\n`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure', file], {
    stdio: 'inherit',
  });
  fs.rmSync(file, { force: true });
  process.exitCode = child.status ?? 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
