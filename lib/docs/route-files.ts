// The HTTP API as it exists on disk: every (method, path) exported by a route.ts under
// app/api, read from the source. Tests compare it with the contract and the OpenAPI
// document so an endpoint cannot exist in one and be missing from another.
import fs from 'node:fs';
import path from 'node:path';

export const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Route folders that are not contract endpoints, with the reason. */
export const NON_CONTRACT_ROUTES: Readonly<Record<string, string>> = {
  '/api/mcp': 'the MCP protocol endpoint, described by /.well-known/mcp.json',
};

const isCatchAll = (segment: string) => /^\[\[?\.\.\./.test(segment);

/** Exported handler names of a route module's source: `export const GET`, `export async function POST`, `export { x as GET }`. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|let|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g))
    found.add(m[1]!);
  for (const block of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const item of block[1]!.split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && (ROUTE_METHODS as readonly string[]).includes(name)) found.add(name);
    }
  }
  return [...found];
}

/** `METHOD /path/{param}` for every route handler under `apiDir` (app/api). */
export function routeHandlersOnDisk(appDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (isCatchAll(entry.name)) continue; // the JSON 404 fallback, not an endpoint
        walk(path.join(dir, entry.name), [...segments, entry.name]);
      } else if (/^route\.tsx?$/.test(entry.name)) {
        // Next.js has no `[id].json` segment: a dynamic folder's own route.ts serves
        // `{id}.json` (the param arrives with `.json`, which the contract strips), or
        // `{id}.ics` when its comments name that path (iCalendar), or both.
        const source = fs.readFileSync(path.join(dir, entry.name), 'utf8');
        const plain = `/${segments
          .filter((s) => !/^\(.*\)$/.test(s))
          .map((s) => s.replace(/^\[(\w+)\]$/, '{$1}'))
          .join('/')}`;
        const last = /\{(\w+)\}$/.exec(plain)?.[1];
        const suffixes = !last
          ? ['']
          : ['.json', '.ics'].filter((suffix) =>
              suffix === '.json'
                ? !source.includes(`{${last}}.ics`) || source.includes(`{${last}}.json`)
                : source.includes(`{${last}}.ics`),
            );
        for (const suffix of suffixes) {
          const urlPath = plain + suffix;
          if (urlPath in NON_CONTRACT_ROUTES) continue;
          for (const method of exportedMethods(source)) out.push(`${method} ${urlPath}`);
        }
      }
    }
  };
  walk(path.join(appDir, 'api'), ['api']);
  return out.sort();
}
