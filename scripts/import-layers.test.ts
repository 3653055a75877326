// Keeps the floors of DESIGN.md: few imports run up them and no folders import each other in a circle.
// The goal (issue 35) is at most 15 upward imports and no circle; the ceiling below only ever goes down.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyse,
  describe as describeReport,
  folderOf,
  isProduction,
  layerOf,
  resolveImport,
  trackedSources,
} from './import-layers';

// Seven left: the contract's parsers from the domain (availability, activities, time zones, the
// limit names) and migration 0018's gazetteer (too big to freeze a copy of).
const MAX_UPWARD_IMPORTS = 7;

describe('the import graph of the production code', () => {
  const report = analyse(trackedSources(path.resolve(import.meta.dirname, '..')));

  it(`has at most ${MAX_UPWARD_IMPORTS} imports from a lower floor to a higher one`, () => {
    expect(report.upward.length, describeReport(report)).toBeLessThanOrEqual(MAX_UPWARD_IMPORTS);
  });

  it('has no folders, and no files, that import each other in a circle', () => {
    expect(report.folderCycles, describeReport(report)).toEqual([]);
    expect(report.fileCycles, describeReport(report)).toEqual([]);
  });

  it('puts every production file on a floor', () => {
    const production = report.edges.flatMap(({ from, to }) => [from, to]).filter(isProduction);
    expect(production.filter((file) => layerOf(file) === undefined)).toEqual([]);
  });
});

describe('the counter on a tiny tree', () => {
  const tree = new Map([
    ['lib/core/errors.ts', 'export class ApiError extends Error {}\n'],
    ['lib/core/log.ts', "import { route } from '@/lib/http/route';\nexport const log = route;\n"],
    ['lib/chats/chats.ts', "import { ApiError } from '../core/errors';\nexport * from '../plans';\n"],
    ['lib/plans/index.ts', "const chats = await import('../chats/chats');\nexport { chats };\n"],
    ['lib/http/route.ts', "import type { ApiError } from '../core/errors';\nimport 'zod';\nexport const route = 1;\n"],
    ['lib/http/route.test.ts', "import { ApiError } from '@/app/api/x/route';\n"],
    ['app/api/x/route.ts', "import { route } from '@/lib/http/route';\n"],
  ]);
  const files = new Set(tree.keys());
  const report = analyse(tree);

  it('resolves @/ and relative specifiers, folders to their index, and leaves packages alone', () => {
    expect(resolveImport('lib/chats/chats.ts', '../core/errors', files)).toBe('lib/core/errors.ts');
    expect(resolveImport('lib/chats/chats.ts', '@/lib/http/route', files)).toBe('lib/http/route.ts');
    expect(resolveImport('lib/chats/chats.ts', '../plans', files)).toBe('lib/plans/index.ts');
    expect(resolveImport('lib/http/route.ts', 'zod', files)).toBeUndefined();
  });

  it('counts static, type-only, export-from and dynamic imports, but not tests', () => {
    expect(report.edges.map(({ from, to, line }) => `${from}:${line} ${to}`).sort()).toEqual([
      'app/api/x/route.ts:1 lib/http/route.ts',
      'lib/chats/chats.ts:1 lib/core/errors.ts',
      'lib/chats/chats.ts:2 lib/plans/index.ts',
      'lib/core/log.ts:1 lib/http/route.ts',
      'lib/http/route.ts:1 lib/core/errors.ts',
      'lib/plans/index.ts:1 lib/chats/chats.ts',
    ]);
  });

  it('reports an import from a lower floor to a higher one, with its line', () => {
    expect(report.upward.map(({ from, line, to }) => `${from}:${line} -> ${to}`)).toEqual([
      'lib/core/log.ts:1 -> lib/http/route.ts',
    ]);
  });

  it('finds folders and files that import each other in a circle', () => {
    expect(report.folderCycles).toEqual([
      ['lib/chats', 'lib/plans'],
      ['lib/core', 'lib/http'],
    ]);
    expect(report.fileCycles).toEqual([['lib/chats/chats.ts', 'lib/plans/index.ts']]);
    expect(folderOf('lib/config.ts')).toBe('lib/config');
    expect(folderOf('app/api/v1/me.json/route.ts')).toBe('app/api');
  });

  it('places the doors on the process floor at their old and new paths', () => {
    expect(layerOf('lib/http/route-front-door.ts')).toBe('process');
    expect(layerOf('server/doors/route-front-door.ts')).toBe('process');
    expect(layerOf('scripts/serve.mjs')).toBe('process');
    expect(layerOf('lib/http/route.ts')).toBe('http');
  });
});
