import { describe, expect, it } from 'vitest';
import {
  interactionUidOf,
  pendingAuthorizationCookie,
  pendingAuthorizationUid,
  signinReturnPath,
} from './pending-authorization';

describe('signinReturnPath', () => {
  it('returns to the consent step only when this browser’s cookie names it', () => {
    expect(signinReturnPath('/oauth/interaction/abc', 'abc')).toBe('/oauth/interaction/abc');
    expect(signinReturnPath('/oauth/interaction/abc', 'other')).toBe('/account');
    expect(signinReturnPath('/oauth/interaction/abc', null)).toBe('/account');
    expect(signinReturnPath('/oauth/interaction/abc?x=1', null)).toBe('/account');
  });

  it('goes to the pending consent step when nothing else is asked for', () => {
    expect(signinReturnPath(undefined, 'abc')).toBe('/oauth/interaction/abc');
    expect(signinReturnPath('', 'abc')).toBe('/oauth/interaction/abc');
    expect(signinReturnPath(undefined, null)).toBe('/account');
  });

  it('keeps other safe paths and never leaves the site', () => {
    expect(signinReturnPath('/account/chats', 'abc')).toBe('/account/chats');
    expect(signinReturnPath('//evil.example/oauth/interaction/abc', 'abc')).toBe('/oauth/interaction/abc');
    expect(signinReturnPath('https://evil.example/', null)).toBe('/account');
  });
});

describe('the pending authorization cookie', () => {
  it('is HttpOnly and SameSite=Lax, names only a uid, and reads back', () => {
    const set = pendingAuthorizationCookie('abc-1', false);
    expect(set).toMatch(/^buddy\.oauth-pending=abc-1; Max-Age=900; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(pendingAuthorizationCookie('abc', true)).toMatch(/^__Secure-buddy\.oauth-pending=abc;.*; Secure$/);
    expect(pendingAuthorizationCookie('a;b', false)).toContain('Max-Age=0');
    expect(pendingAuthorizationUid('x=1; buddy.oauth-pending=abc-1', false)).toBe('abc-1');
    expect(pendingAuthorizationUid('buddy.oauth-pending=../x', false)).toBeNull();
    expect(interactionUidOf('/oauth/interaction/abc/confirm')).toBeNull();
  });
});
