// Small truths (issue 30, section 5): what an agent saw on its second day, now right.
import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_LOG } from '../support/server-log';
import { waitFor } from '../support/wait';
import { api, baseUrl, registerUser, TINY_PNG_BASE64, uniqueEmail } from './client';
import { askBuddy, acceptRequest, makeBuddies, say, users } from './social-helpers';

describe('attribution', () => {
  it('a firstMessage sent with an accept names the token’s agent, as send_message does', async () => {
    const [sender] = await users(1, 'Asker');
    const agentUser = await registerUser({ displayName: 'Accepting Person', agentName: 'HelperBot' });
    const request = await askBuddy(sender!, agentUser);
    const accepted = await acceptRequest(agentUser, request.request.id, { firstMessage: 'Happy to join!' });
    expect(accepted.first_message?.agent_name).toBe('HelperBot');
    const later = await say(agentUser, accepted.chat.chatId, 'See you there.');
    expect(later.agent_name).toBe('HelperBot');
  });
});

describe('idempotent replays', () => {
  it('carry the RateLimit fields, counting nothing for the replay', async () => {
    const [a, b] = await users(2, 'Replayer');
    const chatId = await makeBuddies(a!, b!);
    const send = () =>
      api('POST', `/api/v1/chats/${chatId}/messages.json`, {
        token: a!.token,
        body: { text: 'Only once, please' },
        headers: { 'idempotency-key': `replay-${uniqueEmail()}` },
      });
    const key = `replay-${uniqueEmail()}`;
    const once = () =>
      api('POST', `/api/v1/chats/${chatId}/messages.json`, {
        token: a!.token,
        body: { text: 'Only once, please' },
        headers: { 'idempotency-key': key },
      });
    const first = await once();
    const replay = await once();
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('ratelimit-policy')).toMatch(/"messages";q=\d+;w=600/);
    // The replay counted nothing: it reports what the first left.
    expect(replay.headers.get('ratelimit')?.replace(/;t=\d+/, '')).toBe(
      first.headers.get('ratelimit')?.replace(/;t=\d+/, ''),
    );
    expect((await send()).headers.get('ratelimit')).toMatch(/"messages";r=\d+/);
  });
});

describe('/signup-with-ai', () => {
  it('shows a data: photo as a thumbnail, not as 2 KB of base64 text', async () => {
    const photo = `data:image/png;base64,${TINY_PNG_BASE64}`;
    const query = new URLSearchParams({ email: uniqueEmail('thumb'), name: 'Thumb Nail', photo });
    const res = await fetch(`${baseUrl()}/signup-with-ai?${query}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toMatch(/<img[^>]+src="data:image\/png;base64,iVBOR[^"]*"[^>]*class="photo-thumb"/);
    expect(html).not.toMatch(/<dd[^>]*data-field="photo"[^>]*>data:/);
    // The page's CSP lets the thumbnail load.
    expect(res.headers.get('content-security-policy') ?? '').toMatch(/img-src[^;]* data:/);
  });
});

describe('a client that hangs up', () => {
  it('is logged at info as client_aborted, not as an unhandled error', async () => {
    const { hostname: host, port } = new URL(baseUrl());
    const before = fs.readFileSync(SERVER_LOG, 'utf8').length;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), host, () => {
        socket.write(
          'POST /api/v1/register.json HTTP/1.1\r\n' +
            `Host: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n` +
            'X-Forwarded-For: 10.250.1.1\r\n\r\n{"email":"half',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 500);
      });
      socket.on('error', reject);
    });
    const lines = () => fs.readFileSync(SERVER_LOG, 'utf8').slice(before);
    await waitFor(async () => (lines().includes('client_aborted') ? true : undefined), {
      timeoutMs: 10_000,
      what: 'a client_aborted log line',
    });
    const aborted = lines()
      .split('\n')
      .filter((line) => line.includes('client_aborted'))
      .map((line) => JSON.parse(line));
    expect(aborted[0]).toMatchObject({ level: 'info', message: 'client_aborted', route: 'POST /api/v1/register.json' });
    expect(lines()).not.toMatch(/"level":"error"[^\n]*aborted/);
  });
});
