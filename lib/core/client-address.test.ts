import { describe, expect, it } from 'vitest';
import { loadConfig as load } from '../config';
import {
  clientAddress,
  countTrustsPublicPeer,
  describeTrustProxy,
  normalizeAddress,
  parseTrustProxy,
  type TrustedProxyAddresses,
} from './client-address';

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

  it.each([
    'true',
    'yes',
    '-1',
    '1.5',
    '1e1',
    'one',
    '100',
    '0x1',
    '10.0.0.0/33',
    '10.0.0.0/8/8',
    'loopback,',
    '::1/129',
  ])('refuses %j with a message naming the variable', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(/^TRUST_PROXY must be the number of reverse proxies/);
  });

  const loadConfig = (vars: Record<string, string>) => load(vars as NodeJS.ProcessEnv);
  it('is what startup reads, so a bad value stops the server', () => {
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(describeTrustProxy(loadConfig({ TRUST_PROXY: 'Loopback, 10.0.0.0/8' }).trustedProxies)).toBe(
      'loopback,10.0.0.0/8',
    );
  });
});

describe('parseTrustProxy, proxies named by address', () => {
  const named = (raw: string) => parseTrustProxy(raw) as TrustedProxyAddresses;
  it.each([
    ['loopback', '127.0.0.1', true],
    ['loopback', '127.8.9.10', true],
    ['loopback', '::1', true],
    ['loopback', '::ffff:127.0.0.1', true],
    ['loopback', '10.0.0.1', false],
    ['10.0.0.0/8', '10.200.3.4', true],
    ['10.0.0.0/8', '::ffff:10.200.3.4', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['10.0.0.0/8', '127.0.0.1', false],
    ['10.0.0.0/255.0.0.0', '10.1.1.1', true],
    ['192.0.2.7', '192.0.2.7', true],
    ['192.0.2.7', '192.0.2.8', false],
    ['uniquelocal', '192.168.1.1', true],
    ['uniquelocal', '172.16.0.1', true],
    ['uniquelocal', 'fd00::1', true],
    ['uniquelocal', '8.8.8.8', false],
    ['linklocal', '169.254.1.1', true],
    ['linklocal', 'fe80::1', true],
    ['2001:db8::/32', '2001:db8:1::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['loopback, 10.0.0.0/8', '10.0.0.1', true],
    ['loopback, 10.0.0.0/8', '::1', true],
    ['loopback', 'not an address', false],
  ] as const)('%s trusts %s: %s', (raw, address, expected) => {
    expect(named(raw).trusts(address)).toBe(expected);
  });
});

describe('countTrustsPublicPeer (the one warning of the count form)', () => {
  it.each([
    [1, '203.0.113.9', true],
    [1, '::ffff:8.8.8.8', true],
    [2, '2001:db8::1', true],
    [1, '127.0.0.1', false],
    [1, '::ffff:127.0.0.1', false],
    [1, '10.1.2.3', false],
    [1, '192.168.0.2', false],
    [1, '100.64.0.1', false],
    [1, 'fd12::1', false],
    [1, undefined, false],
    [0, '203.0.113.9', false], // off: the header is ignored anyway
  ] as const)('TRUST_PROXY=%d, peer %s → %s', (count, peer, expected) => {
    expect(countTrustsPublicPeer(count, peer)).toBe(expected);
  });

  it('never fires for proxies named by address (the header is only read from them)', () => {
    expect(countTrustsPublicPeer(parseTrustProxy('10.0.0.0/8'), '203.0.113.9')).toBe(false);
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

  it.each([
    // [TRUST_PROXY, socket peer, X-Forwarded-For, expected]
    ['10.0.0.0/8', '127.0.0.1', '6.6.6.6', '127.0.0.1'], // the peer is no named proxy: the header is the client's own
    ['10.0.0.0/8', '203.0.113.5', '6.6.6.6, 10.0.0.2', '203.0.113.5'],
    ['loopback', '127.0.0.1', '6.6.6.6', '6.6.6.6'], // one proxy on this machine
    ['loopback', '::ffff:127.0.0.1', '6.6.6.6', '6.6.6.6'],
    ['loopback', '::1', '6.6.6.6, 198.51.100.1', '198.51.100.1'], // the client's own left entry is ignored
    ['loopback', '127.0.0.1', undefined, '127.0.0.1'],
    ['loopback', '127.0.0.1', '', '127.0.0.1'],
    ['loopback, 10.0.0.0/8', '127.0.0.1', '6.6.6.6, 198.51.100.1, 10.0.0.2', '198.51.100.1'], // two hops, both ours
    ['loopback, 10.0.0.0/8', '127.0.0.1', '10.0.0.3, 10.0.0.2', '10.0.0.3'], // all trusted: the left-most
    ['loopback', '127.0.0.1', '6.6.6.6, garbage', '127.0.0.1'], // unreadable: the hop that wrote it
    ['loopback, 10.0.0.0/8', '127.0.0.1', 'garbage, 10.0.0.2', '10.0.0.2'],
    ['loopback', '127.0.0.1', '6.6.6.6, [2001:db8:1:2::99]:1234', '2001:db8:1:2::/64'],
    ['loopback', '127.0.0.1', '198.51.100.1:4711', '198.51.100.1'],
  ] as const)('TRUST_PROXY=%s, peer %s, X-Forwarded-For %j → %s', (raw, socketAddress, forwardedFor, expected) => {
    expect(
      clientAddress({
        forwardedFor: forwardedFor as string | undefined,
        socketAddress,
        trustedProxies: parseTrustProxy(raw),
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
