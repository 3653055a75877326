// Writes app/api/route-modules.ts: the route module of every contract path, found by the path
// itself (`/api/v1/chats/{chatId}/messages.json` → app/api/v1/chats/[chatId]/messages.json/route.ts).
// The node server's direct door and the MCP tools load routes from it, so adding an endpoint
// edits no list by hand. Generated rather than computed: literal import()s are what Next.js's
// bundler, esbuild (the server bundle) and tsx all follow. `npm run build` (scripts/build-stamp.ts)
// runs it; scripts/route-modules.test.ts fails when the file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { allEndpoints } from '../lib/contract';

export const ROUTE_MODULES_FILE = 'app/api/route-modules.ts';

const LINE_WIDTH = 120;

/** Where each contract path is served from, relative to app/api, and whether its folder is the path itself. */
export function routeFolders(root: string): { direct: Map<string, string>; suffixed: Map<string, string> } {
  const direct = new Map<string, string>();
  const suffixed = new Map<string, string>();
  const exists = (folder: string) => fs.existsSync(path.join(root, 'app/api', folder, 'route.ts'));
  for (const apiPath of new Set(allEndpoints.map((spec) => spec.path))) {
    const folder = apiPath.replace(/^\/api\//, '').replace(/\{(\w+)\}/g, '[$1]');
    // Next.js has no `[id].json` segment: `{id}.json` and `{id}.ics` are the `[id]` folder's own route.
    const parent = apiPath
      .replace(/^\/api\//, '')
      .replace(/\{(\w+)\}\.\w+$/, '[$1]')
      .replace(/\{(\w+)\}/g, '[$1]');
    if (exists(folder)) direct.set(apiPath, folder);
    else if (parent !== folder && exists(parent)) suffixed.set(apiPath, parent);
    else throw new Error(`${apiPath} is in the contract but app/api/${folder}/route.ts does not exist`);
  }
  return { direct, suffixed };
}

function entries(folders: Map<string, string>): string {
  return [...folders]
    .map(([apiPath, folder]) => {
      const line = `  '${apiPath}': () => import('./${folder}/route'),`;
      return line.length <= LINE_WIDTH ? line : `  '${apiPath}': () =>\n    import('./${folder}/route'),`;
    })
    .join('\n');
}

/** The file's text, in the contract table's order. */
export function routeModulesSource(root: string): string {
  const { direct, suffixed } = routeFolders(root);
  return `// Generated from the contract table by scripts/route-modules.ts (npm run build): do not edit.
// A contract path's route module is the route.ts in the folder named like the path.

/** A route.ts module: its exports, GET, POST and so on among them. */
export type RouteModule = Partial<Record<string, unknown>>;
export type RouteModules = Readonly<Record<string, () => Promise<RouteModule>>>;

/** Paths whose folder under app/ is the path itself ({name} as [name]): the node server answers them directly. */
export const ROUTE_MODULES: RouteModules = {
${entries(direct)}
};

/** Paths ending in {name}.json or {name}.ics: the [name] folder's route serves them (over HTTP, through Next.js). */
export const SUFFIXED_ROUTE_MODULES: RouteModules = {
${entries(suffixed)}
};
`;
}

/** Writes the file when its text changed (an unchanged file keeps its time, and so the build's fingerprint). */
export function writeRouteModules(root: string): boolean {
  const file = path.join(root, ROUTE_MODULES_FILE);
  const source = routeModulesSource(root);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === source) return false;
  fs.writeFileSync(file, source);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  const written = writeRouteModules(process.cwd());
  process.stdout.write(`${ROUTE_MODULES_FILE}: ${written ? 'written' : 'up to date'}\n`);
}
