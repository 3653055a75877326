// Bundles the MCP Apps views at build time (npm run build, after next build): one script,
// built with the SDK's App class, inlined into one self-contained HTML page per view, so a
// view loads no code from anywhere at run time. Prints each view's gzipped size against the
// 60 KB budget of issue 32: the SDK's App (its v2 Protocol and zod) is ~100 KB of it, so
// the views are over it today (see README, MCP Apps views).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { VIEWS, VIEWS_OUT_DIR } from './registry';

export const VIEW_GZIP_BUDGET = 60 * 1024;

/**
 * zod's locales index re-exports ~50 languages' messages; the SDK imports zod as a
 * namespace, which keeps them all (~200 KB). The views never show a zod message.
 */
const englishOnlyZod: esbuild.Plugin = {
  name: 'english-only-zod',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
    }));
  },
};

export async function bundleViewScript(root: string): Promise<string> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['lib/mcp/views/app/main.ts'],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [englishOnlyZod],
  });
  return result.outputFiles[0]?.text ?? '';
}

export function viewPage(name: string, title: string, script: string, css: string): string {
  // `</script` cannot appear inside the inline script.
  const safeScript = script.replaceAll('</script', '<\\/script');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${css}</style></head><body data-view="${name}"><main id="root" aria-live="polite"></main><script>${safeScript}</script></body></html>`;
}

export async function buildViews(root: string): Promise<Array<{ name: string; bytes: number; gzipped: number }>> {
  const script = await bundleViewScript(root);
  const css = fs.readFileSync(path.join(root, 'lib/mcp/views/app/view.css'), 'utf8');
  const out = path.join(root, VIEWS_OUT_DIR);
  fs.mkdirSync(out, { recursive: true });
  const sizes = [];
  for (const view of VIEWS) {
    const html = viewPage(view.name, view.title, script, css);
    const temporary = path.join(out, `${view.name}.html.${process.pid}.tmp`);
    fs.writeFileSync(temporary, html);
    fs.renameSync(temporary, path.join(out, `${view.name}.html`));
    const gzipped = gzipSync(html).length;
    sizes.push({ name: view.name, bytes: Buffer.byteLength(html), gzipped });
  }
  return sizes;
}
