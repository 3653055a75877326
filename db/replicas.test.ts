import { describe, expect, it } from 'vitest';
import { parseLsn } from './replicas';

describe('parseLsn', () => {
  it('orders positions as PostgreSQL does, across the 32-bit boundary that text comparison gets wrong', () => {
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('A/0') > parseLsn('9/FFFFFFFF')).toBe(true);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it('refuses what is not an LSN', () => {
    expect(() => parseLsn('')).toThrow(/Not an LSN/);
  });
});
