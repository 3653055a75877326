// Bundles the MCP Apps views at build time (npm run build, after next build): one script per
// view, built with the SDK's App class, inlined into one self-contained HTML page per view, so a
// view loads no code from anywhere at run time. Each view stays under 60 KB gzipped
// (issue 32; e2e/api/mcp-apps.test.ts reads them through resources/read to hold it).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { VIEWS, VIEWS_OUT_DIR } from './registry';

export const VIEW_GZIP_BUDGET = 60 * 1024;

const LEAN = 'lean-sdk';
const MCP_PACKAGES = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](client|core)[\\/]/;
const EXT_APPS_APP = /[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]dist[\\/]src[\\/]app\.js$/;
const ZOD_JSON_SCHEMA = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;
/** `.describe("…")` on a schema, with a string literal (a template without `${`). */
const DESCRIBE_CALL = /\.describe\((?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.)*`)\)/g;

/**
 * A module with the same exports as `file`, each a function that throws when called; a
 * `create…` factory (zod calls those as it builds each schema) returns such a function.
 */
async function unavailableModule(file: string, what: string): Promise<string> {
  const names = Object.keys(await import(pathToFileURL(file).href));
  const message = JSON.stringify(`${what} is not in the MCP views' bundle`);
  const exports = names.map(
    (name) => `export const ${name} = ${name.startsWith('create') ? '() => unavailable' : 'unavailable'};`,
  );
  return `const unavailable = () => { throw new Error(${message}); };\n${exports.join('\n')}`;
}

/**
 * The SDK's App as a view runs it, less what a view never runs. As published, App brings
 * ~100 KB gzipped of the v2 protocol layer and zod; these steps take ~50 KB off. Steps 2-3
 * throw at build time when ext-apps no longer matches them, the size test (e2e/api/mcp-apps.test.ts)
 * catches the others, and the views' browser tests (e2e/browser/mcp-apps*.spec.ts) run the
 * result in a host built on AppBridge.
 */
const leanSdk: esbuild.Plugin = {
  name: LEAN,
  setup(build) {
    // 1. The MCP client and core packages do not declare sideEffects: false, yet their modules
    //    only define things: the ones App never reaches (HTTP transports, JSON Schema
    //    validators, OAuth) drop out.
    build.onResolve({ filter: /.*/ }, async ({ path: file, kind, importer, resolveDir, pluginData }) => {
      if (pluginData === LEAN) return undefined;
      const resolved = await build.resolve(file, { kind, importer, resolveDir, pluginData: LEAN });
      if (resolved.errors.length > 0 || !MCP_PACKAGES.test(resolved.path)) return resolved;
      return { ...resolved, sideEffects: false };
    });
    build.onLoad({ filter: EXT_APPS_APP }, async ({ path: file }) => {
      const source = await fs.promises.readFile(file, 'utf8');
      // 2. App imports zod as `{ z }`, a re-exported namespace esbuild keeps whole (all of zod);
      //    as `* as z`, only what it uses stays.
      const namespaced = source.replace(/import\{z as (\w+)\}from"zod\/v4"/g, 'import*as $1 from"zod/v4"');
      // 3. The spec schemas' descriptions are documentation: zod reads them only to write JSON Schema.
      const contents = namespaced.replace(DESCRIBE_CALL, '');
      if (namespaced === source || contents === namespaced)
        throw new Error('ext-apps changed: review lean-sdk in lib/mcp/views/build.ts');
      return { contents, loader: 'js' };
    });
    // 4. zod's JSON Schema output: App writes JSON Schema only for tools a view registers (ours
    //    register none), the protocol only for elicitation, which a server sends.
    build.onLoad({ filter: ZOD_JSON_SCHEMA }, async ({ path: file }) => ({
      contents: await unavailableModule(file, 'zod JSON Schema output'),
      loader: 'js',
    }));
  },
};

/**
 * One view's script. BM_VIEW is the view's name, fixed at build time: the code of the
 * other views drops out, so each view carries only its own.
 */
export async function bundleViewScript(root: string, view: string): Promise<string> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['lib/mcp/views/app/main.ts'],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    define: { BM_VIEW: JSON.stringify(view) },
    // Debug logging of every message the SDK parses: nothing a person or a host reads.
    pure: ['console.debug'],
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [leanSdk],
  });
  return result.outputFiles[0]?.text ?? '';
}

export function viewPage(name: string, title: string, script: string, css: string): string {
  // `</script` cannot appear inside the inline script.
  const safeScript = script.replaceAll('</script', '<\\/script');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${css}</style></head><body data-view="${name}"><main id="root" aria-live="polite"></main><script>${safeScript}</script></body></html>`;
}

/** view.css, then the view's own `<name>.css` when there is one, minified. */
async function viewCss(root: string, view: string): Promise<string> {
  const sheets = ['view.css', `${view}.css`]
    .map((file) => path.join(root, 'lib/mcp/views/app', file))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8'));
  const { code } = await esbuild.transform(sheets.join('\n'), { loader: 'css', minify: true });
  return code.trim();
}

export async function buildViews(root: string): Promise<Array<{ name: string; bytes: number; gzipped: number }>> {
  const out = path.join(root, VIEWS_OUT_DIR);
  fs.mkdirSync(out, { recursive: true });
  const sizes = [];
  for (const view of VIEWS) {
    const html = viewPage(
      view.name,
      view.title,
      await bundleViewScript(root, view.name),
      await viewCss(root, view.name),
    );
    const temporary = path.join(out, `${view.name}.html.${process.pid}.tmp`);
    fs.writeFileSync(temporary, html);
    fs.renameSync(temporary, path.join(out, `${view.name}.html`));
    const gzipped = gzipSync(html).length;
    sizes.push({ name: view.name, bytes: Buffer.byteLength(html), gzipped });
  }
  return sizes;
}
