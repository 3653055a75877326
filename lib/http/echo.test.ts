import { describe, expect, it } from 'vitest';
import { echoed } from './echo';

describe('echoed', () => {
  it('keeps short text as it is', () => {
    expect(echoed('get_inbox')).toBe('get_inbox');
    expect(echoed('x'.repeat(80))).toBe('x'.repeat(80));
  });

  it('cuts long text to the limit with an ellipsis', () => {
    const out = echoed('x'.repeat(4_000_000));
    expect(out).toBe(`${'x'.repeat(80)}…`);
  });

  it('never leaves half a surrogate pair', () => {
    const out = echoed(`${'x'.repeat(79)}😀${'y'.repeat(10)}`);
    expect(out).toBe(`${'x'.repeat(79)}…`);
  });
});
