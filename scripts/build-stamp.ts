// "Builds if needed": a fingerprint of the sources is stored beside the build, and
// `npm start` rebuilds only when it differs (or when there is no build yet). Two builds:
//   - Next.js's (`next build`), fingerprinted over the app's sources;
//   - the server process itself (server/start.ts and what it imports), bundled into
//     plain JavaScript with esbuild, fingerprinted over the files that went into it.
//     `npm start` runs that bundle on plain `node`: TypeScript compiled while serving
//     (tsx) kept a loader thread and a second copy of every module's source alive,
//     about 60 MB of each instance's memory (npm run bench:poll, issue 13).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { precompressStatic, STATIC_DIR } from '../server/doors/static';
import { buildViews } from '../lib/mcp/views/build';
import { VIEWS, VIEWS_OUT_DIR } from '../lib/mcp/views/registry';
import { writeRouteModules } from './route-modules';

const SOURCES = ['app', 'lib', 'db', 'public', 'proxy.ts', 'next.config.ts', 'package-lock.json', 'tsconfig.json'];

/** Where `npm start` finds the bundled server (server/serve.mjs imports it). */
const SERVER_BUNDLE = '.next/server-process/start.mjs';
const SERVER_ENTRY = 'server/start.ts';
const SERVER_STAMP = '.next/server-process/fingerprint.json';

function walk(file: string, out: string[]): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(file).sort()) walk(path.join(file, entry), out);
  } else if (!/\.test\.tsx?$/.test(file)) {
    out.push(`${file}:${stat.size}:${stat.mtimeMs}`);
  }
}

/** A hash of these files' (or folders') paths, sizes and modification times. */
function fingerprintOf(root: string, files: readonly string[]): string {
  const entries: string[] = [];
  for (const file of files) walk(path.join(root, file), entries);
  // A file that went away changes the list, and so the fingerprint.
  return createHash('sha256')
    .update(`${files.join('\n')}\n${entries.join('\n')}`)
    .digest('hex');
}

/** True when it built (next build empties .next, so the MCP views are built again after it). */
function buildNextIfNeeded(root: string): boolean {
  const stampFile = path.join(root, '.next', 'source-fingerprint');
  const fingerprint = fingerprintOf(root, SOURCES);
  const built = fs.existsSync(path.join(root, '.next', 'BUILD_ID'));
  if (built && fs.readFileSync(stampFile, { encoding: 'utf8', flag: 'a+' }) === fingerprint) return false;
  process.stdout.write('Building the app (next build)…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
  fs.writeFileSync(stampFile, fingerprint);
  return true;
}

/** The MCP Apps views (lib/mcp/views), bundled into .next/mcp-views beside the app's build; prints their sizes. */
async function buildViewsIfNeeded(root: string, force: boolean): Promise<void> {
  const missing = VIEWS.some((view) => !fs.existsSync(path.join(root, VIEWS_OUT_DIR, `${view.name}.html`)));
  if (!force && !missing) return;
  for (const { name, gzipped } of await buildViews(root))
    process.stdout.write(`MCP view ${name}: ${(gzipped / 1024).toFixed(1)} KB gzipped\n`);
}

/**
 * Our modules read files beside themselves (`import.meta.dirname`); in the bundle that
 * would be the bundle's folder, so each use is rewritten to the module's own folder,
 * relative to the bundle (the checkout can still move as a whole).
 */
function ownFolders(root: string, outDir: string): esbuild.Plugin {
  return {
    name: 'own-folders',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (!args.path.startsWith(root + path.sep) || args.path.includes(`${path.sep}node_modules${path.sep}`)) {
          return undefined;
        }
        const source = await fs.promises.readFile(args.path, 'utf8');
        const folder = `/${path.relative(outDir, path.dirname(args.path)).split(path.sep).join('/')}`;
        const contents = source
          .replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(folder)})`)
          .replaceAll(
            'import.meta.filename',
            `(import.meta.dirname + ${JSON.stringify(`${folder}/${path.basename(args.path)}`)})`,
          );
        return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

async function bundleServerIfNeeded(root: string): Promise<void> {
  const stampFile = path.join(root, SERVER_STAMP);
  const outFile = path.join(root, SERVER_BUNDLE);
  const stamp = fs.existsSync(stampFile)
    ? (JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { inputs: string[]; fingerprint: string })
    : undefined;
  if (stamp && fs.existsSync(outFile) && fingerprintOf(root, stamp.inputs) === stamp.fingerprint) return;
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [SERVER_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages load from node_modules at run time, as they do for Next.js's server chunks.
    packages: 'external',
    tsconfig: 'tsconfig.json',
    outdir: path.dirname(outFile),
    // Modules loaded with import() stay in chunks of their own, read only when first used.
    splitting: true,
    entryNames: '[name]',
    // Beside the entry: the rewritten import.meta.dirname is relative to this one folder.
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    // Read only with NODE_OPTIONS=--enable-source-maps (stack traces in TypeScript).
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [ownFolders(root, path.dirname(outFile))],
  });
  // Several servers may start at once (tests): each file is written whole, then renamed,
  // chunks (content-hashed names) before the entry that imports them.
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const outputs = [
    ...result.outputFiles.filter((o) => o.path !== outFile),
    ...result.outputFiles.filter((o) => o.path === outFile),
  ];
  for (const output of outputs) {
    const temporary = `${output.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, output.contents);
    fs.renameSync(temporary, output.path);
  }
  // Also this file (how it is bundled), the lockfile (esbuild's version) and tsconfig.json (paths).
  const inputs = [
    ...Object.keys(result.metafile.inputs),
    'scripts/build-stamp.ts',
    'package-lock.json',
    'tsconfig.json',
  ].sort();
  const written = { inputs, fingerprint: fingerprintOf(root, inputs) };
  const temporaryStamp = `${stampFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporaryStamp, JSON.stringify(written));
  fs.renameSync(temporaryStamp, stampFile);
}

/** Next.js's build and the server bundle, each only when its sources changed; `serverOnly` skips Next's (workers). */
export async function buildIfNeeded(root: string, { serverOnly = false } = {}): Promise<void> {
  // Before the fingerprints: a new contract path's route module is part of both builds.
  if (writeRouteModules(root)) process.stdout.write('app/api/route-modules.ts written from the contract\n');
  if (!serverOnly) {
    const built = buildNextIfNeeded(root);
    // Brotli copies of the scripts and styles, served by server/doors/static.ts.
    if (built) process.stdout.write(`Brotli: ${await precompressStatic(path.join(root, STATIC_DIR))} files\n`);
    await buildViewsIfNeeded(root, built);
  }
  await bundleServerIfNeeded(root);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  await buildIfNeeded(process.cwd(), { serverOnly: process.argv.includes('--server-only') });
}
