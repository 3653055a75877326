// lib/ is below app/ (DESIGN.md, Layers): the pages and routes call lib, never the other way.
// The server process (server/) is where the two meet, so a door that renders an app component
// lives there. This reads every git-tracked module under lib/ and fails on any import of app/:
// static, type-only, `export … from` and dynamic import(), by alias or by relative path.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const appDir = path.join(root, 'app');

/** Does this import specifier, written in `file`, name a module under app/? */
function namesApp(file: string, specifier: string): boolean {
  if (specifier === '@/app' || specifier.startsWith('@/app/')) return true;
  if (!specifier.startsWith('.')) return false;
  const target = path.resolve(root, path.dirname(file), specifier);
  return target === appDir || target.startsWith(appDir + path.sep);
}

/** Every import of app/ in `file`, as `file:line specifier`. */
function appImportsIn(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.filter((imported) => namesApp(file, imported.fileName))
    .map((imported) => `${file}:${source.slice(0, imported.pos).split('\n').length} ${imported.fileName}`);
}

const libModules = execFileSync('git', ['ls-files', '-z', '--', 'lib/*.ts', 'lib/*.tsx'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '' && fs.existsSync(path.join(root, file)));

describe('lib/ never imports app/', () => {
  it('finds each form of import, and relative paths that climb into app/', () => {
    const source = [
      "import { a } from '@/app/_components/a';",
      "import type { B } from '../../app/b';",
      "export { c } from '@/app/c';",
      'const d = await import(',
      "  '@/app/api/d/route');",
      "import '../../app/side-effect';",
      "// import '@/app/in-a-comment';",
      "import { e } from '@/lib/app/e';",
      "import { f } from './app/f';",
    ].join('\n');
    expect(appImportsIn('lib/web/example.ts', source)).toEqual([
      'lib/web/example.ts:1 @/app/_components/a',
      'lib/web/example.ts:2 ../../app/b',
      'lib/web/example.ts:3 @/app/c',
      'lib/web/example.ts:5 @/app/api/d/route',
      'lib/web/example.ts:6 ../../app/side-effect',
    ]);
  });

  it('holds for every git-tracked module under lib/', () => {
    expect(libModules.length).toBeGreaterThan(100);
    const found = libModules.flatMap((file) => appImportsIn(file, fs.readFileSync(path.join(root, file), 'utf8')));
    expect(found, 'lib/ imports app/: move the code that needs app/ to server/, or pass it in').toEqual([]);
  });
});
