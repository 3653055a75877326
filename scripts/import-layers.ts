// Counts imports that run up the floors of DESIGN.md's Layers table, and circles between folders and files.
// Run: `npx tsx scripts/import-layers.ts` (prints the report); scripts/import-layers.test.ts keeps the goal.
//
// Only production code counts: tests (*.test.ts, e2e/, test-only helpers) may import anything.
// Every import counts, `import type` included: a type import still ties one floor to another.
//
// The floors, lowest first (DESIGN.md: server > app > lib/http > lib/<domain> > lib/core; db imports no app code):
//   0 core      lib/core: the application error, the logger, the guarded outbound fetch. Imports nothing above.
//               lib/net (a free-port finder for the embedded database) imports nothing, so it stands here too.
//   1 db        db/ (the Kysely instance, row types, migrations) and lib/realtime (LISTEN/NOTIFY on that pool).
//   2 contract  lib/contract: the API's shapes (zod schemas, paths, the endpoint table). Domain functions take
//               and return these shapes, so the contract sits under the domain, as a vocabulary both share.
//   3 domain    lib/<domain>: pure fn(db, …) — accounts … plans, limits, notifications, jobs/boss (the queue).
//   4 config    lib/config.ts: reads the environment into the values the domain is handed as arguments.
//   5 http      lib/http (transport), lib/auth (sign-in cookies and pages), lib/oauth (the mounted provider).
//   6 surface   what renders the contract for a reader: lib/mcp, lib/guides, lib/docs, lib/web, lib/legal.
//   7 app       app/ (route files and pages) and proxy.ts.
//   8 process   server/, the doors (lib/http/*-front-door*, moving to server/doors/), scripts/start.ts and
//               scripts/serve.mjs (moving to server/), lib/jobs/workers.ts (the worker process), next.config.ts.
//   9 tools     scripts/: run by hand or by CI, import anything, imported by nothing above.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** First matching pattern wins, so the specific paths come before their folders. */
export const LAYER_TABLE: readonly (readonly [pattern: RegExp, layer: Layer])[] = [
  [/^server\//, 'process'],
  [/^lib\/http\/[^/]*-front-door[^/]*$/, 'process'],
  [/^scripts\/(start\.ts|serve\.mjs)$/, 'process'],
  [/^(lib\/jobs\/workers\.ts|next\.config\.ts)$/, 'process'],
  [/^lib\/(core|net)\//, 'core'],
  [/^(db|lib\/realtime)\//, 'db'],
  [/^lib\/contract\//, 'contract'],
  [/^lib\/config\.ts$/, 'config'],
  [/^lib\/(http|auth|oauth)\//, 'http'],
  [/^lib\/(mcp|guides|docs|web|legal)\//, 'surface'],
  [/^lib\//, 'domain'],
  [/^(app\/|proxy\.ts$)/, 'app'],
  [/^scripts\//, 'tools'],
];

export const LAYERS = [
  'core',
  'db',
  'contract',
  'domain',
  'config',
  'http',
  'surface',
  'app',
  'process',
  'tools',
] as const;
export type Layer = (typeof LAYERS)[number];

/** Tests and test-only helpers: they may import anything, and nothing in production imports them. */
export function isProduction(file: string): boolean {
  if (!/\.(ts|tsx|mjs)$/.test(file) || file.endsWith('.d.ts')) return false;
  if (/\.(test|spec)\.tsx?$/.test(file)) return false;
  if (/^(e2e|test)\//.test(file) || /^(vitest|playwright)\.config\.ts$/.test(file)) return false;
  return true;
}

export function layerOf(file: string): Layer | undefined {
  return LAYER_TABLE.find(([pattern]) => pattern.test(file))?.[1];
}

/** The folder a file belongs to, for folder circles: lib/<x>, app/<x>, or the top folder (db, server, scripts). */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if ((parts[0] === 'lib' || parts[0] === 'app') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  if (parts[0] === 'lib') return file.replace(/\.[^.]+$/, '');
  return parts.length > 1 ? (parts[0] ?? file) : file;
}

export interface Import {
  specifier: string;
  line: number;
}

/** Static imports, `export … from` and dynamic `import()`, as TypeScript's own scanner finds them. */
export function importsOf(source: string): Import[] {
  const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1)];
  const lineOf = (pos: number) => lineStarts.findLastIndex((start) => start <= pos) + 1;
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((ref) => ({ specifier: ref.fileName, line: lineOf(ref.pos) }));
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** The tracked file an `@/…` or relative specifier names, or undefined for packages and node builtins. */
export function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('./') || specifier.startsWith('../')) {
    base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  } else return undefined;
  for (const extension of EXTENSIONS) {
    if (files.has(base + extension)) return base + extension;
  }
  return undefined;
}

export interface Edge {
  from: string;
  to: string;
  line: number;
}

export interface Report {
  edges: Edge[];
  upward: (Edge & { fromLayer: Layer; toLayer: Layer })[];
  folderCycles: string[][];
  fileCycles: string[][];
}

/** Strongly connected components with more than one member (Tarjan). */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

function addEdge(graph: Map<string, Set<string>>, from: string, to: string): void {
  const targets = graph.get(from) ?? new Set<string>();
  targets.add(to);
  graph.set(from, targets);
}

/** The whole analysis over file contents keyed by repository path; pure, so the test can feed it a tiny tree. */
export function analyse(sources: ReadonlyMap<string, string>): Report {
  const files = new Set(sources.keys());
  const edges: Edge[] = [];
  for (const [from, source] of sources) {
    if (!isProduction(from)) continue;
    for (const { specifier, line } of importsOf(source)) {
      const to = resolveImport(from, specifier, files);
      if (to !== undefined && to !== from) edges.push({ from, to, line });
    }
  }
  const rank = (file: string) => {
    const layer = layerOf(file);
    return layer === undefined ? -1 : LAYERS.indexOf(layer);
  };
  const upward = edges
    .filter((edge) => isProduction(edge.to) && rank(edge.to) > rank(edge.from))
    .map((edge) => ({ ...edge, fromLayer: layerOf(edge.from) as Layer, toLayer: layerOf(edge.to) as Layer }));
  const fileGraph = new Map<string, Set<string>>();
  const folderGraph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    addEdge(fileGraph, from, to);
    if (folderOf(from) !== folderOf(to)) addEdge(folderGraph, folderOf(from), folderOf(to));
  }
  return { edges, upward, folderCycles: cycles(folderGraph), fileCycles: cycles(fileGraph) };
}

/** The folder pairs inside a circle that import each other directly: the first places to cut. */
export function mutualPairs(report: Report): string[] {
  const pairs = new Set<string>();
  const seen = new Set(report.edges.map(({ from, to }) => `${folderOf(from)} ${folderOf(to)}`));
  for (const key of seen) {
    const [a, b] = key.split(' ');
    if (a !== b && a !== undefined && b !== undefined && a < b && seen.has(`${b} ${a}`)) pairs.add(`${a} <-> ${b}`);
  }
  return [...pairs].sort();
}

export function trackedSources(root: string): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs'], {
    cwd: root,
    encoding: 'utf8',
  });
  const sources = new Map<string, string>();
  for (const file of listed.split('\0')) {
    if (file !== '') sources.set(file, readFileSync(path.join(root, file), 'utf8'));
  }
  return sources;
}

export function describe(report: Report): string {
  const lines = [`upward imports: ${report.upward.length}`];
  for (const edge of report.upward) {
    lines.push(`  ${edge.from}:${edge.line} (${edge.fromLayer}) -> ${edge.to} (${edge.toLayer})`);
  }
  lines.push(`folder circles: ${report.folderCycles.length}`);
  for (const cycle of report.folderCycles) lines.push(`  ${cycle.join(' ')}`);
  const pairs = mutualPairs(report);
  lines.push(`folder pairs importing each other: ${pairs.length}`);
  for (const pair of pairs) lines.push(`  ${pair}`);
  lines.push(`file circles: ${report.fileCycles.length}`);
  for (const cycle of report.fileCycles) lines.push(`  ${cycle.join(' ')}`);
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.filename === path.resolve(process.argv[1])) {
  console.log(describe(analyse(trackedSources(path.resolve(import.meta.dirname, '..')))));
}
