// MCP Apps views (extension io.modelcontextprotocol/ui, spec 2026-01-26): each is one
// ui:// resource, a self-contained HTML page bundled at build time (lib/mcp/views/build.ts),
// that a host renders in a sandboxed iframe beside the tool's result. A host without MCP
// Apps ignores `_meta.ui` and gets the same text result as before.
import fs from 'node:fs';
import path from 'node:path';

export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

export interface ViewSpec {
  name: string;
  uri: string;
  title: string;
  /** The tools whose results this view shows (`_meta.ui.resourceUri`). */
  tools: readonly string[];
}

export const VIEWS: readonly ViewSpec[] = [
  { name: 'people', uri: 'ui://bm/people', title: 'People nearby', tools: ['discover'] },
  { name: 'requests', uri: 'ui://bm/requests', title: 'Buddy requests', tools: ['list_buddy_requests'] },
  { name: 'send', uri: 'ui://bm/send', title: 'Send a buddy request', tools: ['send_buddy_request'] },
];

/** The view a tool's result is shown in, if any. */
export function viewOfTool(tool: string): ViewSpec | undefined {
  return VIEWS.find((view) => view.tools.includes(tool));
}

/**
 * The CSP a view needs (McpUiResourceCsp): images from this site, and from the blob store
 * when photos live there. No connect-src: a view reaches the server only through the host
 * (tools/call), which carries the person's token; no script or style from anywhere.
 */
export function viewCsp(publicBaseUrl: string, blobStore: boolean): { resourceDomains: string[] } {
  const domains = [new URL(publicBaseUrl).origin];
  if (blobStore) domains.push('https://*.public.blob.vercel-storage.com');
  return { resourceDomains: domains };
}

/** Where `npm run build` writes the bundled views (after next build, which empties .next). */
export const VIEWS_OUT_DIR = '.next/mcp-views';

const cache = new Map<string, string>();

/** The view's HTML as built, read once per process; undefined when the build has not made it. */
export function viewHtml(view: ViewSpec, root = process.cwd()): string | undefined {
  const cached = cache.get(view.name);
  if (cached) return cached;
  const file = path.join(root, VIEWS_OUT_DIR, `${view.name}.html`);
  if (!fs.existsSync(file)) return undefined;
  const html = fs.readFileSync(file, 'utf8');
  cache.set(view.name, html);
  return html;
}
