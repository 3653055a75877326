import { describe, expect, it } from 'vitest';
import { offlinePageHtml } from './offline-page';

describe('offlinePageHtml', () => {
  it('puts the nonce on its one style and one script, and loads no script file', () => {
    const html = offlinePageHtml('abc+/=123');
    expect(html.match(/nonce="abc\+\/=123"/g)).toHaveLength(2);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
    expect(html).toContain('<h1>You’re offline</h1>');
  });

  it('cannot be broken out of by a nonce', () => {
    expect(offlinePageHtml('"><script>alert(1)</script>')).not.toContain('<script>alert(1)');
  });

  it('stays small: the point is not to send a framework', () => {
    expect(Buffer.byteLength(offlinePageHtml('n'))).toBeLessThan(6_000);
  });

  it('shows stored text as text only', () => {
    expect(offlinePageHtml('n')).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
  });
});
