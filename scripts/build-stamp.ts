// "Builds if needed": a fingerprint of the sources is stored beside the build, and
// `npm start` rebuilds only when it differs (or when there is no build yet).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'lib', 'db', 'public', 'proxy.ts', 'next.config.ts', 'package-lock.json', 'tsconfig.json'];

function walk(file: string, out: string[]): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(file).sort()) walk(path.join(file, entry), out);
  } else if (!/\.test\.tsx?$/.test(file)) {
    out.push(`${file}:${stat.size}:${stat.mtimeMs}`);
  }
}

export function sourceFingerprint(root: string): string {
  const entries: string[] = [];
  for (const source of SOURCES) walk(path.join(root, source), entries);
  return createHash('sha256').update(entries.join('\n')).digest('hex');
}

export function buildIfNeeded(root: string): void {
  const stampFile = path.join(root, '.next', 'source-fingerprint');
  const fingerprint = sourceFingerprint(root);
  const built = fs.existsSync(path.join(root, '.next', 'BUILD_ID'));
  if (built && fs.readFileSync(stampFile, { encoding: 'utf8', flag: 'a+' }) === fingerprint) return;
  process.stdout.write('Building the app (next build)…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
  fs.writeFileSync(stampFile, fingerprint);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  buildIfNeeded(process.cwd());
}
