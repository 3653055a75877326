// `npm run bench:gazetteer`: the offline gazetteer's first load and per-lookup cost.
// A benchmark, not a test: timings depend on the machine and its load.
import { geocodeOffline, nearestPlace } from '../lib/geo';

const LABELS = [
  'Portland, OR',
  'Berlin',
  'Brooklyn, New York',
  'London, UK',
  'São Paulo',
  'Paris, France',
  'Springfield, IL',
  'Munich',
  'NYC',
  'SF Bay Area',
  'Portland OR',
  'asdfghjkl',
  'Shoreditch, London, UK',
  'Perth, WA',
];

function timeMs(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const heapBefore = process.memoryUsage().heapUsed;
const loadMs = timeMs(() => geocodeOffline('Portland, OR'));
const heapDeltaMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

const rounds = 2_000;
const geocodeUs =
  (timeMs(() => {
    for (let i = 0; i < rounds; i++) for (const label of LABELS) geocodeOffline(label);
  }) *
    1000) /
  (rounds * LABELS.length);

// Typical reverse lookups are near where people live: jitter around big cities.
const centres = LABELS.map(geocodeOffline).filter((p) => p !== null);
const points = 20_000;
const nearestUs =
  (timeMs(() => {
    for (let i = 0; i < points; i++) {
      const c = centres[i % centres.length]!;
      nearestPlace(c.latitude + ((i % 41) - 20) / 40, c.longitude + ((i % 37) - 18) / 30);
    }
  }) *
    1000) /
  points;
// Worst case: open ocean / polar points fall back to a linear scan.
const remote = 2_000;
const remoteUs =
  (timeMs(() => {
    for (let i = 0; i < remote; i++) nearestPlace(-60 + (i % 2) * 140, ((i * 53) % 360) - 180);
  }) *
    1000) /
  remote;

console.log(`first load: ${loadMs.toFixed(0)} ms (heap +${heapDeltaMb.toFixed(0)} MB before GC)`);
console.log(`geocodeOffline: ${geocodeUs.toFixed(1)} µs/lookup`);
console.log(
  `nearestPlace: ${nearestUs.toFixed(1)} µs/lookup near cities, ${remoteUs.toFixed(0)} µs for ocean/polar points`,
);
