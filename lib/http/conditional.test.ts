import { describe, expect, it } from 'vitest';
import { etagOf, matchesIfNoneMatch } from '../core/etag';
import { conditionalReply } from './conditional';

const get = (ifNoneMatch?: string) =>
  new Request('http://x/', { headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} });

describe('conditional GET', () => {
  it('tags equal bodies alike and different bodies differently', () => {
    expect(etagOf({ a: 1 })).toBe(etagOf({ a: 1 }));
    expect(etagOf({ a: 1 })).not.toBe(etagOf({ a: 2 }));
    expect(etagOf({ a: 1 }, { weak: true })).toMatch(/^W\/"[\w-]{32}"$/);
    expect(etagOf('{"a":1}')).toMatch(/^"[\w-]{32}"$/);
  });

  it.each([
    ['the same tag', (t: string) => t, true],
    ['the tag without W/', (t: string) => t.slice(2), true],
    ['the tag among others', (t: string) => `"x", ${t}`, true],
    ['*', () => '*', true],
    ['another tag', () => 'W/"other"', false],
  ])('matches If-None-Match with %s: %s', (_name, header, expected) => {
    const tag = etagOf({ a: 1 }, { weak: true });
    expect(matchesIfNoneMatch(header(tag), tag)).toBe(expected);
  });

  it('answers 304 without a body when the stable part is unchanged', () => {
    const first = conditionalReply(get(), { items: [1], server_time: 'a' }, { volatileKeys: ['server_time'] });
    expect(first.init.status).toBeUndefined();
    expect(first.body).toEqual({ items: [1], server_time: 'a' });
    const etag = first.init.headers!.etag!;
    const again = conditionalReply(get(etag), { items: [1], server_time: 'b' }, { volatileKeys: ['server_time'] });
    expect(again.init.status).toBe(304);
    expect(again.body).toBeNull();
    const changed = conditionalReply(get(etag), { items: [1, 2], server_time: 'b' }, { volatileKeys: ['server_time'] });
    expect(changed.init.status).toBeUndefined();
    expect(changed.init.headers!.etag).not.toBe(etag);
  });
});
