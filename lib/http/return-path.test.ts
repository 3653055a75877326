import { describe, expect, it } from 'vitest';
import { safeRedirectUrl, safeReturnPath } from './return-path';

const SITE = 'https://buddy.example';

// Values as they reach the code, i.e. after the query string was decoded once.
const ATTACKS: Array<[name: string, value: string]> = [
  ['raw tab after the slash (/%09/ in the URL)', '/\t/evil.example'],
  ['raw newline (/%0a/)', '/\n/evil.example'],
  ['raw carriage return (/%0d/)', '/\r/evil.example'],
  ['leading space', ' //evil.example'],
  ['no-break space', '/\u00a0/evil.example'],
  ['line separator', '/\u2028/evil.example'],
  ['DEL', '/\u007f/evil.example'],
  ['NUL', '/\u0000/evil.example'],
  ['slash backslash', '/\\evil.example'],
  ['two backslashes', '\\\\evil.example'],
  ['backslash later in the path', '/account\\..\\\\evil.example'],
  ['protocol-relative', '//evil.example/path'],
  ['three slashes', '///evil.example'],
  ['encoded second slash', '/%2F/evil.example'],
  ['encoded second slash, lower case', '/%2f/evil.example'],
  ['encoded backslash', '/%5Cevil.example'],
  ['encoded tab', '/%09/evil.example'],
  ['encoded newline', '/%0a/evil.example'],
  ['encoded carriage return', '/%0D/evil.example'],
  ['encoded NUL', '/account%00'],
  ['encoded no-break space', '/%C2%A0/evil.example'],
  ['double-encoded tab', '/%2509/evil.example'],
  ['double-encoded slash', '/%252F/evil.example'],
  ['double-encoded backslash', '/%255Cevil.example'],
  ['triple-encoded slash', '/%25252F/evil.example'],
  ['six times encoded slash (deeper than we decode)', `/%${'25'.repeat(5)}2F/evil.example`],
  ['encoded control in the query', '/account?next=%0a'],
  ['malformed encoding', '/account/%E0%A4%A'],
  ['dot segments that end in //host', '/.//evil.example'],
  ['https:', 'https://evil.example/'],
  ['http://evil', 'http://evil'],
  ['scheme-relative https:', 'https:evil.example'],
  ['javascript:', 'javascript:alert(document.domain)'],
  ['encoded javascript:', 'javascript%3Aalert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['relative path', 'account'],
  ['empty', ''],
  ['too long', `/${'a'.repeat(2100)}`],
];

const LEGITIMATE: Array<[value: string, expected: string]> = [
  ['/account', '/account'],
  ['/account/profile', '/account/profile'],
  ['/u/sam?x=1', '/u/sam?x=1'],
  ['/account/discover?activity=hiking&radius=25', '/account/discover?activity=hiking&radius=25'],
  ['/account/discover?q=rock%20climbing', '/account/discover?q=rock%20climbing'],
  ['/account?next=%2F%2Fevil.example', '/account?next=%2F%2Fevil.example'], // a query value on our own page
  ['/account/chats/abc%2Fdef', '/account/chats/abc%2Fdef'],
  ['/u/zo%C3%AB', '/u/zo%C3%AB'],
  ['/u/zoë', '/u/zoë'],
  ['/signin?signedOut=1', '/signin?signedOut=1'],
  ['/account#top', '/account#top'],
  ['/', '/'],
];

describe('safeReturnPath', () => {
  it.each(ATTACKS)('refuses %s', (_name, value) => {
    expect(safeReturnPath(value)).toBe('/account');
  });

  it.each(LEGITIMATE)('keeps %j', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    [undefined, '/account'],
    [null, '/account'],
    [['/first', '/second'], '/first'],
    [['//evil.example', '/second'], '/account'],
  ])('%j → %s', (input, expected) => {
    expect(safeReturnPath(input as string | string[] | undefined)).toBe(expected);
  });

  it('uses the fallback it is given', () => {
    expect(safeReturnPath('//evil.example', '/signin')).toBe('/signin');
  });

  it('refuses what the old check (no "//" or "/\\" prefix) let through and a browser resolves off-site', () => {
    const oldCheck = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
    // Browsers parse Location like WHATWG URL: these left the site before.
    for (const value of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example']) {
      expect(oldCheck(value)).toBe(true);
      expect(new URL(value, SITE).host).toBe('evil.example');
      expect(safeReturnPath(value)).toBe('/account');
    }
  });
});

describe('safeRedirectUrl (Auth.js redirect callback)', () => {
  it.each([
    ['/account/profile', `${SITE}/account/profile`],
    ['/signin?signedOut=1', `${SITE}/signin?signedOut=1`],
    [`${SITE}/account/chats`, `${SITE}/account/chats`], // Auth.js's callback-url cookie holds absolute URLs
    [SITE, `${SITE}/account`],
    [`${SITE}//evil.example`, `${SITE}/account`],
    [`${SITE}/\t/evil.example`, `${SITE}/account`],
    ['https://buddy.example.evil.example/', `${SITE}/account`],
    ['https://evil.example/account', `${SITE}/account`],
    ['http://buddy.example/account', `${SITE}/account`], // another scheme is another origin
    ['/%09/evil.example', `${SITE}/account`],
    ['javascript:alert(1)', `${SITE}/account`],
  ])('%j → %s', (url, expected) => {
    expect(safeRedirectUrl(url, SITE)).toBe(expected);
  });
});
