// Biome must check every tracked source file. A files pattern once excluded every route file,
// because each lives in a folder named like `inbox.json/` and `!**/*.json` matched the folder.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The files Biome says it processed, from its verbose "Files processed" list. */
function filesBiomeProcesses(): Set<string> {
  const out = execFileSync(
    path.join(root, 'node_modules/.bin/biome'),
    ['format', '--verbose', '--colors=off', '--max-diagnostics=0', '.'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const listed = out.split('Files processed:')[1]?.split('VERBOSE')[0] ?? '';
  return new Set([...listed.matchAll(/^\s+- (.+)$/gm)].map((m) => (m[1] ?? '').trim()));
}

test('Biome checks every git-tracked .ts and .tsx file, route files included', () => {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
  const processed = filesBiomeProcesses();
  expect(tracked.some((file) => file.includes('.json/route.ts'))).toBe(true);
  expect(tracked.filter((file) => !processed.has(file))).toEqual([]);
}, 60_000);
