import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

// Each case gets a fresh module and a clean globalThis, as a fresh process would.
const PROOF = Symbol.for('buddy-match.client-ip-proof');
const WARNED = Symbol.for('buddy-match.client-ip-warned');
async function freshIpModule() {
  const g = globalThis as Record<symbol, unknown>;
  delete g[PROOF];
  delete g[WARNED];
  vi.resetModules();
  return import('./ip');
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) if (typeof value === 'string') headers.set(name, value);
  return headers;
}

// The warning is a log line on stdout: captured, so it can be asserted and stays out of the output.
let write: MockInstance<typeof process.stdout.write>;
beforeEach(() => {
  write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

describe('the client address stamp', () => {
  it('is trusted when our server stamped it, whatever the client sent in the same headers', async () => {
    const ip = await freshIpModule();
    ip.installClientIpProof();
    const incoming: IncomingHttpHeaders = { [ip.CLIENT_IP_HEADER]: '6.6.6.6', [ip.CLIENT_IP_PROOF_HEADER]: 'forged' };
    ip.stampClientIp(incoming, '198.51.100.1');
    const request = new Request('http://x/', { headers: toHeaders(incoming) });
    expect(ip.clientIp(request)).toBe('198.51.100.1');
    expect(ip.clientIpFromHeaders(toHeaders(incoming))).toBe('198.51.100.1');
  });

  it.each([
    ['a forged address without proof', (_proof: string) => ({ 'x-buddy-client-ip': '6.6.6.6' })],
    [
      'a forged address with a guessed proof',
      (_proof: string) => ({
        'x-buddy-client-ip': '6.6.6.6',
        'x-buddy-client-ip-proof': 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      }),
    ],
    [
      'a forged address with a truncated proof',
      (proof: string) => ({ 'x-buddy-client-ip': '6.6.6.6', 'x-buddy-client-ip-proof': proof.slice(0, 20) }),
    ],
    ['the proof without an address', (proof: string) => ({ 'x-buddy-client-ip-proof': proof })],
    ['no stamp at all', (_proof: string) => ({})],
  ])('puts %s into the shared "unverified" bucket', async (_name, headersFor) => {
    const ip = await freshIpModule();
    ip.installClientIpProof();
    const stamped: IncomingHttpHeaders = {};
    ip.stampClientIp(stamped, '198.51.100.1');
    const proof = String(stamped[ip.CLIENT_IP_PROOF_HEADER]);
    const request = new Request('http://x/', { headers: headersFor(proof) });
    expect(ip.clientIp(request)).toBe(ip.UNVERIFIED_CLIENT);
  });

  it('fails closed in a process our server did not start (e.g. `next start`), and warns once', async () => {
    const ip = await freshIpModule();
    for (const forged of ['6.6.6.6', '7.7.7.7', '8.8.8.8']) {
      const request = new Request('http://x/', {
        headers: { [ip.CLIENT_IP_HEADER]: forged, [ip.CLIENT_IP_PROOF_HEADER]: 'anything' },
      });
      expect(ip.clientIp(request)).toBe(ip.UNVERIFIED_CLIENT);
    }
    const warnings = write.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes('client_ip_unverified'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', event: 'client_ip_unverified' });
  });

  it('refuses to stamp before the proof exists', async () => {
    const ip = await freshIpModule();
    expect(() => ip.stampClientIp({}, '198.51.100.1')).toThrow(/installClientIpProof/);
  });

  it('keeps one proof per process, shared by every bundle that loads the module', async () => {
    const first = await freshIpModule();
    first.installClientIpProof();
    const stamped: IncomingHttpHeaders = {};
    first.stampClientIp(stamped, '198.51.100.1');
    vi.resetModules();
    const second = await import('./ip'); // another copy of the module, as in another Next.js bundle
    second.installClientIpProof();
    expect(second.clientIp(new Request('http://x/', { headers: toHeaders(stamped) }))).toBe('198.51.100.1');
  });
});
