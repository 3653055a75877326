// `npm run test:changed [-- <base>] [--list]`: the inner loop (--list says what it would run). Only the tests the files changed since `main`
// (or <base>) can affect, committed or not:
//   - Biome on the changed files;
//   - vitest on the unit and API tests that import a changed file (what `vitest --changed main` picks),
//     plus the API files named after a changed domain (lib/plans → plans, plan-reminders, …): API tests
//     reach the server over HTTP, so its code is not in their imports;
//   - Playwright on the specs that open a changed page (scripts/test-changed-map.ts).
// `npm test` stays the whole suite, and what CI runs.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { importsOf, resolveImport, trackedSources } from './import-layers';
import { EVERY_SPEC, SPECS_BY_SOURCE, specFile, WEB_SOURCES } from './test-changed-map';

const root = path.resolve(import.meta.dirname, '..');

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');

/** Vitest's own list for `--changed <base>`: committed since the merge base, staged, modified and untracked. */
export function changedFiles(base: string): string[] {
  return [
    ...new Set([
      ...git('diff', '--name-only', `${base}...HEAD`),
      ...git('diff', '--cached', '--name-only'),
      ...git('ls-files', '--other', '--modified', '--exclude-standard'),
    ]),
  ].sort();
}

/** Who imports whom, reversed: for each file, the files that import it. */
export function importersOf(sources: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const files = new Set(sources.keys());
  const importers = new Map<string, Set<string>>();
  for (const [file, source] of sources) {
    for (const { specifier } of importsOf(source)) {
      const target = resolveImport(file, specifier, files);
      if (target) importers.set(target, (importers.get(target) ?? new Set()).add(file));
    }
  }
  return importers;
}

const isSpec = (file: string) => /^e2e\/browser\/.+\.spec\.ts$/.test(file);
const isBrowserHelper = (file: string) => file.startsWith('e2e/browser/') && !isSpec(file);

/** The browser specs a set of changed files can affect (see scripts/test-changed-map.ts). */
export function browserSpecsFor(
  changed: readonly string[],
  importers: ReadonlyMap<string, ReadonlySet<string>>,
  allSpecs: readonly string[],
): string[] {
  if (changed.some((file) => EVERY_SPEC.test(file))) return [...allSpecs];
  const specs = new Set<string>();
  // Up the imports from each changed web source or browser helper, staying among those.
  const reached = new Set<string>();
  const queue = changed.filter((file) => WEB_SOURCES.test(file) || isBrowserHelper(file) || isSpec(file));
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const importer of importers.get(file) ?? [])
      if (WEB_SOURCES.test(importer) || isBrowserHelper(importer) || isSpec(importer)) queue.push(importer);
  }
  for (const file of reached) {
    if (isSpec(file)) specs.add(file);
    if (!WEB_SOURCES.test(file)) continue;
    const rules = SPECS_BY_SOURCE.filter((rule) => file.startsWith(rule.prefix));
    for (const rule of rules) for (const spec of rule.specs) specs.add(specFile(spec));
  }
  // A changed web source that no page rule reaches: every spec, rather than none.
  if (changed.some((file) => WEB_SOURCES.test(file) && !reachesARule(file, importers))) return [...allSpecs];
  return [...specs].filter((spec) => allSpecs.includes(spec)).sort();
}

/** True when the file, or something that imports it (among web sources), falls under a rule. */
function reachesARule(file: string, importers: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    if (SPECS_BY_SOURCE.some((rule) => next.startsWith(rule.prefix))) return true;
    for (const importer of importers.get(next) ?? []) if (WEB_SOURCES.test(importer)) queue.push(importer);
  }
  return false;
}

/** API files named after a changed domain folder: lib/plans/x.ts → e2e/api/plans.test.ts, plan-reminders, …. */
export function apiFilesFor(changed: readonly string[], apiFiles: readonly string[]): string[] {
  const domains = new Set(
    changed.flatMap((file) => {
      const match = /^(?:lib|app\/api\/v1)\/([a-z-]+)[/.]/.exec(file);
      return match ? [match[1]!.replace(/s$/, '')] : [];
    }),
  );
  return apiFiles.filter((file) => [...domains].some((domain) => path.basename(file).includes(domain)));
}

let listOnly = false;
function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  process.stdout.write(`\n▶ ${label}\n`);
  if (listOnly) {
    process.stdout.write(`${path.relative(root, command)} ${args.join(' ')}\n`);
    return true;
  }
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  listOnly = process.argv.includes('--list');
  const base = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'main';
  const changed = changedFiles(base).filter((file) => fs.existsSync(path.join(root, file)));
  process.stdout.write(`${changed.length} files changed since ${base}\n`);
  if (changed.length === 0) process.exit(0);
  const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
  let ok = true;

  const linted = changed.filter((file) => /\.(ts|tsx|mjs|js|css)$/.test(file));
  if (linted.length)
    ok = run('format and lint (changed files)', bin('biome'), ['ci', '--error-on-warnings', ...linted]) && ok;

  const apiFiles = git('ls-files', 'e2e/api/*.test.ts');
  const extraApi = apiFilesFor(changed, apiFiles);
  if (extraApi.length) process.stdout.write(`API files for the changed domains: ${extraApi.join(', ')}\n`);
  // `vitest related` with vitest's own --changed list, plus those files: one run, one stack.
  ok =
    run('unit and API tests (changed)', bin('vitest'), [
      'related',
      '--run',
      '--passWithNoTests',
      ...changed,
      ...extraApi,
    ]) && ok;

  const allSpecs = git('ls-files', 'e2e/browser/*.spec.ts');
  const specs = browserSpecsFor(changed, importersOf(trackedSources(root)), allSpecs);
  if (specs.length) {
    const all = specs.length === allSpecs.length;
    ok = run('browser tests (changed)', bin('playwright'), ['test', ...(all ? [] : specs)]) && ok;
  } else {
    process.stdout.write('\nNo browser spec opens a changed page.\n');
  }
  process.exit(ok ? 0 : 1);
}
