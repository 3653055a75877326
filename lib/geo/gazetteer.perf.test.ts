// Timing report. Lives in its own file so the first call really pays the
// lazy load (vitest gives each test file a fresh module graph).
import { describe, expect, it } from "vitest";
import { geocodeOffline, nearestPlace } from "./index";

const LABELS = [
  "Portland, OR", "Berlin", "Brooklyn, New York", "London, UK", "São Paulo",
  "Paris, France", "Springfield, IL", "Munich", "NYC", "SF Bay Area",
  "Portland OR", "asdfghjkl", "Shoreditch, London, UK", "Perth, WA",
];

function timeMs(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe("gazetteer performance", () => {
  it("loads lazily once, then answers lookups in well under 1 ms", () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const loadMs = timeMs(() => geocodeOffline("Portland, OR"));
    const heapDeltaMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

    const rounds = 2_000;
    const geocodeUs = (timeMs(() => {
      for (let i = 0; i < rounds; i++) for (const label of LABELS) geocodeOffline(label);
    }) * 1000) / (rounds * LABELS.length);

    // Typical reverse lookups are near where people live: jitter around big cities.
    const centres = LABELS.map(geocodeOffline).filter((p) => p !== null);
    const points = 20_000;
    const nearestUs = (timeMs(() => {
      for (let i = 0; i < points; i++) {
        const c = centres[i % centres.length]!;
        nearestPlace(c.latitude + ((i % 41) - 20) / 40, c.longitude + ((i % 37) - 18) / 30);
      }
    }) * 1000) / points;
    // Worst case: open ocean / polar points fall back to a linear scan.
    const remote = 2_000;
    const remoteUs = (timeMs(() => {
      for (let i = 0; i < remote; i++) nearestPlace(-60 + (i % 2) * 140, ((i * 53) % 360) - 180);
    }) * 1000) / remote;

    console.log(
      `[geo] first load ${loadMs.toFixed(0)} ms (heap +${heapDeltaMb.toFixed(0)} MB before GC); ` +
        `geocodeOffline ${geocodeUs.toFixed(1)} µs/lookup; nearestPlace ${nearestUs.toFixed(1)} µs/lookup ` +
        `(remote ocean/polar points: ${remoteUs.toFixed(0)} µs)`,
    );
    expect(geocodeUs).toBeLessThan(500);
    expect(nearestUs).toBeLessThan(500);
  });
});
