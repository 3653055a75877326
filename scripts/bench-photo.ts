// Benchmark of the photo pipeline (not a test): a ~5 MB 4000x3000 JPEG goes through
// what an upload does — base64 decode, magic-byte and pixel checks, sharp (rotate,
// strip, resize to 1600, WEBP, thumbnail) — and we report time and peak memory.
//   npm run bench:photo            (5 timed runs after one warm-up)
// The image is made first in this process; the measuring runs in a fresh child so
// its peak RSS (VmHWM) reflects processing only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { decodeInlinePhoto } from '../lib/photos/input';
import { PHOTO_LIMITS, processPhoto } from '../lib/photos/image';

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

async function measure(file: string): Promise<void> {
  const base64 = fs.readFileSync(file).toString('base64');
  const baseline = process.memoryUsage().rss / 1024 / 1024;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let sampledPeak = 0;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss / 1024 / 1024);
  }, 2);
  let last: Awaited<ReturnType<typeof processPhoto>> | undefined;
  for (let run = 0; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const { bytes, declaredType } = decodeInlinePhoto(base64, 'image/jpeg');
    last = await processPhoto(bytes, declaredType);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpu = process.cpuUsage(cpuBefore);
    if (run > 0) {
      // run 0 warms up libvips
      times.push(ms);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
    }
  }
  clearInterval(sampler);
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const result = {
    input: {
      bytes: Buffer.byteLength(base64, 'base64'),
      width: last!.original.width,
      height: last!.original.height,
      base64_chars: base64.length,
    },
    output: {
      image: { bytes: last!.image.data.length, width: last!.image.width, height: last!.image.height },
      thumbnail_bytes: last!.thumbnail.data.length,
    },
    runs: times.length,
    ms: {
      median: Math.round(times[Math.floor(times.length / 2)]!),
      min: Math.round(times[0]!),
      max: Math.round(times.at(-1)!),
    },
    // CPU time (all threads) is less sensitive than wall time to other load on the machine.
    cpu_ms_median: Math.round(cpuTimes[Math.floor(cpuTimes.length / 2)]!),
    load_average_1m: Number(os.loadavg()[0]!.toFixed(1)),
    rss_mb: {
      before: Math.round(baseline),
      peak_sampled: Math.round(sampledPeak),
      peak_vmhwm: Math.round(peakRssMb()),
    },
    cpus: os.cpus().length,
    sharp_concurrency: sharp.concurrency(),
    limits: PHOTO_LIMITS,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
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
