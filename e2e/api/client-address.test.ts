// Issue 12 §2: the client address cannot be chosen by the client. The test stack runs
// with TRUST_PROXY=1, i.e. one reverse proxy in front that appends the address it saw as
// the right-most X-Forwarded-For entry. These tests play a client behind that proxy that
// writes its own entries to the left, rotating them to dodge per-address limits.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { listEvents } from '@/lib/contract/events';
import { baseUrl, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { call, send } from './contract-client';
import { WebClient } from './web-client';
import { startServerProcess, type ServerProcess } from '../support/stack';

const PASSWORD = 'correct horse battery';
let spoofCounter = 0;
/** A left-most entry the client makes up: a new one every time. */
const spoofed = () =>
  `203.0.113.${(spoofCounter += 1) % 250}, 198.51.${Math.floor(spoofCounter / 250) % 250}.${spoofCounter % 250}`;
/** What the one trusted proxy forwards: the client's own entries, then the address it saw. */
const behindProxy = (real: string) => `${spoofed()}, ${real}`;

const registrationsFrom = async (ip: string) =>
  Number(
    (
      await testDb()
        .selectFrom('registrations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ip', '=', ip)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A registration over `agent`'s one connection, as the proxy forwards it for `real`; whether the socket was reused. */
function registerOver(agent: http.Agent, real: string): Promise<{ status: number; reused: boolean }> {
  const body = JSON.stringify({ email: uniqueEmail('conn'), displayName: 'Same Line' });
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl()}${register.path}`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-forwarded-for': real,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('one keep-alive connection from the proxy', () => {
  it('counts each request under the address its own header names (the address is not kept per connection)', async () => {
    // A proxy sends many clients' requests down one connection: the server keeps the last
    // address of each connection only to skip reading an unchanged header again.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const [a, b] = [freshIp(), freshIp()];
      const answers = [];
      for (const real of [a, b, a, b, b]) answers.push(await registerOver(agent, real));
      expect(answers.map((x) => x.status)).toEqual([201, 201, 201, 201, 201]);
      expect(answers.slice(1).every((x) => x.reused)).toBe(true);
      expect([await registrationsFrom(a), await registrationsFrom(b)]).toEqual([2, 3]);
    } finally {
      agent.destroy();
    }
  });
});

describe('spoofed X-Forwarded-For entries behind one proxy', () => {
  it('do not get past the registration limit (3 per hour)', async () => {
    const real = freshIp();
    const statuses: number[] = [];
    const retryAfters: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await send(register, {
        ip: behindProxy(real),
        body: { email: uniqueEmail('spoof'), displayName: 'Spoofer' },
      });
      statuses.push(res.status);
      if (!res.ok) {
        expect(res.error.code).toBe('rate_limited');
        retryAfters.push(res.headers.get('retry-after') ?? '');
      }
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    for (const value of retryAfters) expect(Number(value)).toBeGreaterThan(3500);
    // Every registration was counted under the proxy's entry; no made-up address was ever stored.
    expect(await registrationsFrom(real)).toBe(3);
    const spoofedRows = await testDb()
      .selectFrom('registrations')
      .select('ip')
      .where('ip', 'like', '203.0.113.%')
      .execute();
    expect(spoofedRows).toEqual([]);
    // The limit is still per client: another real address registers.
    await call(register, { ip: behindProxy(freshIp()), body: { email: uniqueEmail('other'), displayName: 'Other' } });
  });

  it('do not get past the failed-password limit for one account', async () => {
    const user = await registerUser({ password: PASSWORD, emailMagicLink: false });
    const real = freshIp();
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await new WebClient(behindProxy(real)).signInWithPassword(user.user.email, `guess-${i}`);
      codes.push(new URL(res.location!).searchParams.get('code')!);
    }
    expect(codes).toEqual([...Array(5).fill('credentials'), ...Array(3).fill('rate_limited')]);
    const rows = await testDb()
      .selectFrom('auth_attempts')
      .select('ip')
      .where('account_key', '=', user.user.email.toLowerCase())
      .execute();
    expect(rows.map((r) => r.ip)).toEqual(Array(5).fill(real));
    // The right password from that client, under yet another made-up entry, is still paused.
    const right = await new WebClient(behindProxy(real)).signInWithPassword(user.user.email, PASSWORD);
    expect(new URL(right.location!).searchParams.get('code')).toBe('rate_limited');
  });

  it('do not get past the failed-password limit per client across accounts (20)', async () => {
    const real = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await new WebClient(behindProxy(real)).signInWithPassword(
        uniqueEmail(`spray${i}`),
        'whatever-password',
      );
      expect(new URL(res.location!).searchParams.get('code')).toBe('credentials');
    }
    const blocked = await new WebClient(behindProxy(real)).signInWithPassword(
      uniqueEmail('spray-more'),
      'whatever-password',
    );
    const target = new URL(blocked.location!);
    expect(target.searchParams.get('code')).toBe('rate_limited');
    expect(target.searchParams.get('reason')).toBe('network');
  });

  it('do not get past the sign-in link limit per client (20 an hour)', async () => {
    const real = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await new WebClient(behindProxy(real)).requestSigninLink(uniqueEmail(`link${i}`));
      expect(new URL(res.location!).pathname).toBe('/signin/check-email');
    }
    const refused = await new WebClient(behindProxy(real)).requestSigninLink(uniqueEmail('link-more'));
    expect(new URL(refused.location!).searchParams.get('reason')).toBe('network');
  });
});

describe('a forged x-buddy-client-ip header', () => {
  const forged = (address: string) => ({
    'x-buddy-client-ip': address,
    'x-buddy-client-ip-proof': 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  });

  it('is ignored: the address stored and counted is the one the proxy forwarded', async () => {
    const real = freshIp();
    const res = await call(register, {
      ip: real,
      headers: forged('192.0.2.77'),
      body: { email: uniqueEmail('forge'), displayName: 'Forger' },
    });
    const row = await testDb()
      .selectFrom('registrations')
      .select('ip')
      .where('user_id', '=', res.user.id)
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe(real);
  });

  it('does not get past the registration limit', async () => {
    const real = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send(register, {
        ip: real,
        headers: forged(`192.0.2.${100 + i}`),
        body: { email: uniqueEmail('forge'), displayName: 'Forger' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(await registrationsFrom(real)).toBe(3);
  });
});

describe('the stamp reaches every kind of handler', () => {
  it('logs no unverified client address: route handlers, Auth.js callbacks and pages all saw the proof', async () => {
    // Exercise each kind once, then read the server log (every earlier test ran on this server too).
    await call(listEvents, {});
    await new WebClient().signInWithPassword(uniqueEmail('stamp'), 'whatever-password');
    await new WebClient().request('GET', '/signin');
    const log = fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    expect(log).toContain('"event":"listening"');
    expect(log).toContain('"trusted_proxies":1');
    expect(log).not.toContain('client_ip_unverified');
    // TRUST_PROXY=1 with the proxy on loopback (as here): no warning of a public peer.
    expect(log).not.toContain('trust_proxy_public_peer');
  });
});

describe('TRUST_PROXY naming the proxies by address', () => {
  // Two more servers on the same database; the test client reaches both over loopback.
  let tenNet: ServerProcess;
  let loopback: ServerProcess;
  beforeAll(async () => {
    const shared = { databaseUrl: inject('databaseUrl'), dataDir: inject('dataDir'), args: ['--role=web'] };
    [tenNet, loopback] = await Promise.all([
      startServerProcess({ ...shared, env: { TRUST_PROXY: '10.0.0.0/8' } }),
      startServerProcess({ ...shared, env: { TRUST_PROXY: 'loopback' } }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([tenNet?.stop(), loopback?.stop()]);
  });

  it('ignores X-Forwarded-For from a peer that is none of them: spoofed entries do not get past the registration limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // What a client talking to the server directly writes: a new made-up address each time.
      const res = await send(register, {
        base: tenNet.baseUrl,
        ip: spoofed(),
        body: { email: uniqueEmail('direct'), displayName: 'Direct' },
      });
      statuses.push(res.status);
      if (!res.ok) expect(res.error.code).toBe('rate_limited');
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    // Counted under the socket's own address; no made-up one stored.
    expect(await registrationsFrom('127.0.0.1')).toBe(3);
    const spoofedRows = await testDb()
      .selectFrom('registrations')
      .select('ip')
      .where((eb) => eb.or([eb('ip', 'like', '203.0.113.%'), eb('ip', 'like', '198.51.%')]))
      .execute();
    expect(spoofedRows).toEqual([]);
  });

  it('honours X-Forwarded-For from a named proxy, taking the entry it wrote', async () => {
    const clients = [freshIp(), freshIp(), freshIp(), freshIp(), freshIp()];
    for (const real of clients) {
      // More registrations than one address may make: each client is counted on its own.
      await call(register, {
        base: loopback.baseUrl,
        ip: behindProxy(real),
        body: { email: uniqueEmail('proxied'), displayName: 'Proxied' },
      });
      expect(await registrationsFrom(real)).toBe(1);
    }
    // The limit still holds per client behind that proxy.
    const real = clients[0]!;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(register, {
        base: loopback.baseUrl,
        ip: behindProxy(real),
        body: { email: uniqueEmail('proxied'), displayName: 'Proxied' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
    const log = fs.readFileSync(loopback.logFile, 'utf8');
    expect(log).toContain('"trusted_proxies":"loopback"');
    expect(log).not.toContain('trust_proxy_public_peer');
  });
});
