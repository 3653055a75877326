import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '@/lib/contract';
import { ROUTE_MODULES } from '@/app/api/route-modules';

const root = path.resolve(import.meta.dirname, '../..');
/** The route file Next.js serves a contract path from, when its folder is the path itself. */
const routeFileOf = (template: string) => path.join(root, 'app', template.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');

describe('the direct route door (server/doors/route.ts)', () => {
  it('answers every contract path whose route folder is the path, and only those', () => {
    const served = [...new Set(allEndpoints.map((spec) => spec.path))].filter((p) => fs.existsSync(routeFileOf(p)));
    expect(Object.keys(ROUTE_MODULES).sort()).toEqual(served.sort());
  });

  it("names route files that export the contract's methods", async () => {
    for (const spec of allEndpoints) {
      const load = ROUTE_MODULES[spec.path];
      if (!load) continue;
      const source = fs.readFileSync(routeFileOf(spec.path), 'utf8');
      expect(source, `${spec.method} ${spec.path}`).toMatch(
        new RegExp(`export (const|async function) ${spec.method}\\b`),
      );
    }
  });
});
