// What the browser loads of the contract: every 'use client' module, and every module of
// this repository it imports at run time (transitively), may take from lib/contract only
// the plain modules (paths, limits), and nothing may import zod. Type-only imports
// (`import type`, `import { type X }`) are erased before bundling and so are allowed.
// A 'use server' module is a boundary: the client gets a reference, not its imports.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PLAIN_CONTRACT = new Set(['lib/contract/paths.ts', 'lib/contract/limits.ts']);
const FORBIDDEN_PACKAGES = [/^zod(\/|$)/];

const parse = (fileName: string, text: string) =>
  ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

/** The module specifiers a source imports or re-exports at run time. */
function runtimeImports(fileName: string, text: string): string[] {
  const source = parse(fileName, text);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The directives ('use client', 'use server') a source starts with. */
function directives(fileName: string, text: string): string[] {
  if (!/['"]use (client|server)['"]/.test(text)) return [];
  const source = parse(fileName, text);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) break;
    found.push(statement.expression.text);
  }
  return found;
}

/** The repository file a specifier names (relative or '@/'), or null for a package. */
function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${path.relative(root, from)}: cannot resolve ${specifier}`);
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(
      (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.split(path.sep).includes('node_modules'),
    )
    .map((name) => path.join(dir, name));
}

/** Each forbidden run-time import reachable from the client modules, as the chain that reaches it. */
function clientViolations(): { clientFiles: string[]; visited: number; violations: string[] } {
  const read = (file: string) => fs.readFileSync(file, 'utf8');
  const clientFiles = [...sourceFiles(path.join(root, 'app')), ...sourceFiles(path.join(root, 'lib'))].filter((file) =>
    directives(file, read(file)).includes('use client'),
  );
  const violations: string[] = [];
  const seen = new Set<string>();
  const queue = clientFiles.map((file) => [file]);
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = chain[chain.length - 1]!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    const rel = (f: string) => path.relative(root, f);
    if (chain.length > 1 && directives(file, text).includes('use server')) continue;
    const route = chain.map(rel).join(' → ');
    const relFile = rel(file);
    if (
      relFile.startsWith(`lib${path.sep}contract${path.sep}`) &&
      !PLAIN_CONTRACT.has(relFile.split(path.sep).join('/'))
    ) {
      violations.push(route);
      continue;
    }
    for (const specifier of runtimeImports(file, text)) {
      const target = resolve(file, specifier);
      if (target === null) {
        if (FORBIDDEN_PACKAGES.some((pattern) => pattern.test(specifier))) violations.push(`${route} → ${specifier}`);
      } else queue.push([...chain, target]);
    }
  }
  return { clientFiles, visited: seen.size, violations };
}

describe('runtimeImports', () => {
  it('keeps run-time imports and drops type-only ones', () => {
    const text = [
      "import type { A } from './type-only';",
      "import { type B, type C } from './inline-types';",
      "import { type D, e } from './mixed';",
      "import f from './default';",
      "import * as g from './namespace';",
      "import './side-effect';",
      "export { h } from './re-export';",
      "export type { I } from './re-export-type';",
      "export * from './star';",
      "const j = () => import('./dynamic');",
    ].join('\n');
    expect(runtimeImports('x.ts', text)).toEqual([
      './mixed',
      './default',
      './namespace',
      './side-effect',
      './re-export',
      './star',
      './dynamic',
    ]);
  });
});

describe('client bundles', () => {
  it('take from lib/contract only the plain modules, and no zod', () => {
    const { clientFiles, visited, violations } = clientViolations();
    expect(clientFiles.length).toBeGreaterThan(10);
    expect(visited).toBeGreaterThan(clientFiles.length);
    expect(violations).toEqual([]);
  }, 30_000);
});
