import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_MODULES, SUFFIXED_ROUTE_MODULES } from '@/app/api/route-modules';
import { allEndpoints, endpoints } from '@/lib/contract';
import { routeHandlerLoader } from '@/lib/mcp/server';
import { toolDefinitions } from '@/lib/mcp/tools';
import { ROUTE_MODULES_FILE, routeModulesSource } from './route-modules';

const root = path.resolve(import.meta.dirname, '..');
const modules = { ...ROUTE_MODULES, ...SUFFIXED_ROUTE_MODULES };
// Loading every route module (and what it imports) takes seconds on a busy machine.
const LOADS_ROUTES = { timeout: 60_000 };

describe('app/api/route-modules.ts (generated from the contract)', () => {
  it('is current: run `npx tsx scripts/route-modules.ts` (or npm run build) after adding an endpoint', () => {
    expect(fs.readFileSync(path.join(root, ROUTE_MODULES_FILE), 'utf8')).toBe(routeModulesSource(root));
  });

  it('names, for every contract endpoint, a route module that exports its method', LOADS_ROUTES, async () => {
    expect(Object.keys(modules).sort()).toEqual([...new Set(allEndpoints.map((spec) => spec.path))].sort());
    for (const spec of allEndpoints) {
      const module = await modules[spec.path]!();
      expect(module[spec.method], `${spec.method} ${spec.path}`).toBeTypeOf('function');
    }
  });

  it('leaves to Next.js only the paths whose route folder is not the path ({id}.json and {id}.ics)', () => {
    expect(Object.keys(SUFFIXED_ROUTE_MODULES)).toEqual([
      '/api/v1/plans/{planId}.json',
      '/api/v1/meetups/{meetupId}.json',
      '/api/v1/plans/{planId}.ics',
      '/api/v1/meetups/{meetupId}.ics',
      '/api/v1/calendar/{secret}.ics',
    ]);
  });

  it("answers every MCP tool with its own route's handler", LOADS_ROUTES, async () => {
    // `{id}.json` as the last segment is served by the `[id]` folder's own route.ts (lib/docs/route-files.ts).
    const routeFile = (apiPath: string) =>
      path.join(root, 'app', apiPath.replace(/\{(\w+)\}\.json$/, '[$1]').replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');
    for (const tool of toolDefinitions(endpoints)) {
      const handler = await routeHandlerLoader(tool, modules)();
      const module = (await import(routeFile(tool.spec.path))) as Record<string, unknown>;
      expect(handler, `${tool.name}: the ${tool.spec.method} export of ${routeFile(tool.spec.path)}`).toBe(
        module[tool.spec.method],
      );
    }
  });
});
