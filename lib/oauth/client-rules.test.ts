// The rules every OAuth client is held to (issue 28), and the guard on oidc-provider's own
// outbound requests, tried against a real listener on loopback that counts connections.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClientMetadata, DEVICE_GRANT, guardedHttpOptions } from './client-rules';
import { DEVICE_CLIENT_ID } from '../accounts/oauth-resources';

/** oidc-provider's error: the code in message, the reason in error_description. */
function refusal(metadata: Record<string, unknown>, registering: boolean): string | null {
  try {
    checkClientMetadata(metadata, registering);
    return null;
  } catch (error) {
    const { message, error_description } = error as { message: string; error_description?: string };
    return `${message}: ${error_description}`;
  }
}

describe('checkClientMetadata', () => {
  const ok = { client_id: 'abc', client_name: 'Cursor', grant_types: ['authorization_code', 'refresh_token'] };

  it.each([
    ['sector_identifier_uri', 'https://127.0.0.1:4207/sector'],
    ['jwks_uri', 'https://example.com/jwks.json'],
    ['request_uris', ['https://example.com/request']],
    ['backchannel_logout_uri', 'https://example.com/logout'],
  ])('refuses %s, which would make the provider fetch a URL', (field, value) => {
    expect(refusal({ ...ok, [field]: value }, true)).toMatch(/not accepted/);
    expect(refusal({ ...ok, [field]: value }, false)).toMatch(/not accepted/);
  });

  it('refuses the device grant at registration and strips it from a stored client', () => {
    expect(refusal({ ...ok, grant_types: [DEVICE_GRANT] }, true)).toMatch(/only for the pre-registered/);
    const stored: Record<string, unknown> = { ...ok, grant_types: [DEVICE_GRANT, 'refresh_token'] };
    checkClientMetadata(stored, false);
    expect(stored.grant_types).toEqual(['refresh_token']);
    const device: Record<string, unknown> = { client_id: DEVICE_CLIENT_ID, grant_types: [DEVICE_GRANT] };
    checkClientMetadata(device, false);
    expect(device.grant_types).toEqual([DEVICE_GRANT]);
  });

  it.each(['Buddy Match Safety Check', 'BuddyMatch', 'B.u.d.d.y M4tch support', 'Вuddy Mаtch'])(
    'refuses a name that passes for this service: %s',
    (name) => {
      expect(refusal({ ...ok, client_name: name }, true)).toMatch(/may not pass for Buddy Match/);
    },
  );

  it('accepts an ordinary client', () => {
    expect(refusal({ ...ok }, true)).toBeNull();
  });
});

describe('guardedHttpOptions (every request oidc-provider makes)', () => {
  let server: net.Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    (p: number) => `https://127.0.0.1:${p}/sector`,
    (p: number) => `https://[::ffff:127.0.0.1]:${p}/sector`,
    (p: number) => `http://127.0.0.1:${p}/sector`,
    (p: number) => `https://localhost:${p}/sector`,
    () => 'https://127.0.0.1/sector',
    () => 'https://localhost/sector',
    () => 'https://169.254.169.254/latest/meta-data',
  ])('never connects to a private address: %s', async (target) => {
    const url = new URL(target(port));
    const before = connections;
    // As oidc-provider's request helper (lib/helpers/request.js) calls got with these options.
    const { signal, dnsLookup } = guardedHttpOptions(url);
    await expect(
      got({
        url,
        followRedirect: false,
        retry: { limit: 0 },
        throwHttpErrors: false,
        signal,
        dnsLookup: dnsLookup as never,
      }),
    ).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(before);
  });

  it('lets a public https URL through with a timeout and the guarded lookup', () => {
    const options = guardedHttpOptions(new URL('https://example.com/jwks.json'));
    expect(options.signal.aborted).toBe(false);
    expect(typeof options.dnsLookup).toBe('function');
  });
});
