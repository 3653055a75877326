// `npm start` (and start:web, start:worker): builds what is out of date, then serves.
// This file is plain JavaScript so the server runs on plain `node`: the build (Next.js's,
// and server/start.ts bundled by esbuild, scripts/build-stamp.ts) runs in a short-lived
// TypeScript process, then the bundled server is imported into this one, which keeps
// the signals, the exit code and the memory of a single process.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Before any module loads: React picks its production or development build when it is
// first imported, from NODE_ENV, and `npm start` is a production server.
process.env.NODE_ENV ??= 'production';
process.env.NEXT_TELEMETRY_DISABLED = '1';

const root = path.resolve(import.meta.dirname, '..');
// Workers serve no pages: they need the server bundle, not Next.js's build.
const serverOnly = process.argv.includes('--role=worker');
const build = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'scripts/build-stamp.ts'), ...(serverOnly ? ['--server-only'] : [])],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);
// SERVER_BUNDLE in scripts/build-stamp.ts (this file cannot import TypeScript).
await import(pathToFileURL(path.join(root, '.next/server-process/start.mjs')).href);
