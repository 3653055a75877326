import { describe, expect, it } from 'vitest';
import { readCookie, sessionCookieName, usesSecureCookies } from './cookies';

describe('cookies', () => {
  it('uses the __Secure- prefix only over https', () => {
    expect(usesSecureCookies('https://buddy.example')).toBe(true);
    expect(usesSecureCookies('http://localhost:3000')).toBe(false);
    expect(sessionCookieName(true)).toBe('__Secure-buddy.session');
    expect(sessionCookieName(false)).toBe('buddy.session');
  });

  it('reads one cookie from a header', () => {
    const header = 'a=1; buddy.session=bm_ss_abc%2Bdef; other=x=y';
    expect(readCookie(header, 'buddy.session')).toBe('bm_ss_abc+def');
    expect(readCookie(header, 'other')).toBe('x=y');
    expect(readCookie(header, 'missing')).toBeUndefined();
    expect(readCookie(null, 'a')).toBeUndefined();
    expect(readCookie('bad=%E0%A4%A', 'bad')).toBe('%E0%A4%A');
  });
});
