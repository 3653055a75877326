import { describe, expect, expectTypeOf, it } from 'vitest';
import { endpointsAt } from '../http/endpoint-paths';
import { allEndpoints } from './index';
import { API_PATHS, fill, paths, type ParamNames, type PathName } from './paths';

const names = Object.keys(API_PATHS) as PathName[];

describe('API_PATHS', () => {
  it('holds exactly the paths the contract declares', () => {
    const declared = new Set(allEndpoints.map((spec) => spec.path));
    const tabled = new Set<string>(Object.values(API_PATHS));
    expect([...declared].filter((path) => !tabled.has(path))).toEqual([]);
    expect([...tabled].filter((path) => !declared.has(path))).toEqual([]);
    expect(tabled.size).toBe(names.length);
  });

  it("builds, for every entry, a path the server routes to that entry's endpoints", () => {
    for (const name of names) {
      const template = API_PATHS[name];
      const params = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], `${m[1]} ü/?#`]));
      const built = (paths[name] as (p: Record<string, string>) => string)(params);
      expect(built).not.toMatch(/[{} ?#]/);
      const served = endpointsAt(built);
      expect(served.length, `${name}: ${built}`).toBeGreaterThan(0);
      expect(new Set(served.map((spec) => spec.path))).toEqual(new Set([template]));
    }
  });
});

describe('fill', () => {
  it('percent-encodes each parameter', () => {
    expect(fill(API_PATHS.messages, { chatId: 'a/b c' })).toBe('/api/v1/chats/a%2Fb%20c/messages.json');
    expect(paths.block({ slug: 'zoë' })).toBe('/api/v1/users/zo%C3%AB/block.json');
    expect(paths.chats()).toBe('/api/v1/chats.json');
  });

  it('refuses a missing parameter, even when the compiler was talked out of it', () => {
    expect(() => fill(API_PATHS.read, {} as { chatId: string })).toThrow(/missing path parameter chatId/);
  });

  it('types the parameters and the result from the template', () => {
    expectTypeOf<ParamNames<'/a/{x}/b/{y}.json'>>().toEqualTypeOf<'x' | 'y'>();
    expectTypeOf<ParamNames<'/a.json'>>().toBeNever();
    expectTypeOf(paths.messages({ chatId: 'c' })).toEqualTypeOf<`/api/v1/chats/${string}/messages.json`>();
    expectTypeOf(paths.inbox()).toEqualTypeOf<'/api/v1/inbox.json'>();
    // @ts-expect-error the template names chatId, not id
    expect(() => paths.messages({ id: 'c' })).toThrow();
    // @ts-expect-error a path without parameters takes none
    paths.chats({ chatId: 'c' });
  });
});
