import { describe, expect, it } from 'vitest';
import { loadConfig as load } from '../config';
import { clientAddress, normalizeAddress, parseTrustProxy } from './client-address';

describe('parseTrustProxy', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    ['1', 1],
    [' 2 ', 2],
    ['10', 10],
  ])('%j → %d', (raw, expected) => {
    expect(parseTrustProxy(raw)).toBe(expected);
  });

  it.each(['true', 'yes', '-1', '1.5', '1e1', 'one', '100', '0x1'])(
    'refuses %j with a message naming the variable',
    (raw) => {
      expect(() => parseTrustProxy(raw)).toThrow(/^TRUST_PROXY must be the number of reverse proxies/);
    },
  );

  const loadConfig = (vars: Record<string, string>) => load(vars as NodeJS.ProcessEnv);
  it('is what startup reads, so a bad value stops the server', () => {
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['  203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]:443', '203.0.113.7'],
    // IPv6: the /64 network, however the address is written.
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::1', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]:8443', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['::1', '::/64'],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });

  it.each([
    '',
    'unknown',
    'evil.example',
    '203.0.113',
    '203.0.113.256',
    '01.2.3.4',
    '1.2.3.4.5',
    '[1.2.3.4]x',
    '::ffff:1.2.3.4:80',
    '1.2.3.4, 5.6.7.8',
    'not an ip',
  ])('refuses %j', (raw) => {
    expect(normalizeAddress(raw)).toBeNull();
  });
});

describe('clientAddress', () => {
  const socket = '::ffff:192.0.2.10';
  it.each([
    // [TRUST_PROXY, X-Forwarded-For, expected]
    [0, undefined, '192.0.2.10'],
    [0, '198.51.100.1', '192.0.2.10'], // off: the header is ignored
    [1, undefined, '192.0.2.10'], // no header: the request bypassed the proxy
    [1, '', '192.0.2.10'],
    [1, '198.51.100.1', '198.51.100.1'], // one entry: the one our proxy wrote
    [1, '6.6.6.6, 198.51.100.1', '198.51.100.1'], // the client's own left-most entry is ignored
    [1, '6.6.6.6,198.51.100.1', '198.51.100.1'],
    [1, ['6.6.6.6', '198.51.100.1'], '198.51.100.1'],
    [1, '6.6.6.6, 7.7.7.7, 198.51.100.1:4711', '198.51.100.1'],
    [1, '198.51.100.1, garbage', '192.0.2.10'], // our proxy's entry unreadable: the socket, never the client's entry
    [1, '198.51.100.1, ', '198.51.100.1'],
    [2, '6.6.6.6, 198.51.100.1, 10.0.0.2', '198.51.100.1'], // CDN → load balancer → us
    [2, '198.51.100.1', '192.0.2.10'], // too few entries for two proxies
    [3, '6.6.6.6, 198.51.100.1, 10.0.0.3, 10.0.0.2', '198.51.100.1'],
    [1, '6.6.6.6, [2001:db8:1:2::99]:1234', '2001:db8:1:2::/64'],
  ] as const)('TRUST_PROXY=%d, X-Forwarded-For %j → %s', (trustedProxies, forwardedFor, expected) => {
    expect(
      clientAddress({
        forwardedFor: forwardedFor as string | string[] | undefined,
        socketAddress: socket,
        trustedProxies,
      }),
    ).toBe(expected);
  });

  it('answers "unknown" when even the socket address is gone', () => {
    expect(clientAddress({ forwardedFor: undefined, socketAddress: undefined, trustedProxies: 0 })).toBe('unknown');
    expect(clientAddress({ forwardedFor: 'garbage', socketAddress: undefined, trustedProxies: 1 })).toBe('unknown');
  });

  it('cannot be steered by rotating the entries a client writes (the old left-most rule could)', () => {
    const headers = Array.from({ length: 50 }, (_, i) => `10.0.${i}.1, 203.0.113.${i}, 198.51.100.1`);
    const oldLeftMost = new Set(headers.map((h) => h.split(',')[0]!.trim()));
    expect(oldLeftMost.size).toBe(50); // 50 "clients", 50 fresh allowances
    const seen = new Set(
      headers.map((forwardedFor) => clientAddress({ forwardedFor, socketAddress: socket, trustedProxies: 1 })),
    );
    expect([...seen]).toEqual(['198.51.100.1']);
  });
});
