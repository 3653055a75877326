import { describe, expect, it } from 'vitest';
import { pageContentSecurityPolicy } from '../http/security-headers';

describe('pageContentSecurityPolicy', () => {
  it('allows scripts only by nonce, never inline, and forbids framing', () => {
    const csp = pageContentSecurityPolicy('abc123', false);
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(pageContentSecurityPolicy('abc123', true)).toContain('upgrade-insecure-requests');
  });
});
