// MCP Apps (issue 32 §1-2), through the official SDK client: the ui:// views as resources
// with their CSP, tools pointing at them, results unchanged for hosts without views, and
// the person confirmation of send_buddy_request under attack: the model's own call to the
// app-only tool, a replay, an altered payload, another account's token and an expired one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { api, baseUrl, freshIp, testDb } from './client';
import { users } from './social-helpers';

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; _meta?: Record<string, any> };

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close().catch(() => {}))));

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-apps-test', version: '1.0.0' });
  const headers = { 'x-forwarded-for': freshIp(), authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const textOf = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');

describe('MCP Apps views', () => {
  it('serves each view as text/html;profile=mcp-app with the CSP of this site, and tools point at them', async () => {
    const [person] = await users(1, 'Viewer');
    const client = await connect(person.token);
    const { resources } = await client.listResources();
    const views = resources.filter((r) => r.uri.startsWith('ui://'));
    expect(views.map((v) => v.uri).sort()).toEqual(['ui://bm/people', 'ui://bm/requests', 'ui://bm/send']);
    const origin = new URL(baseUrl()).origin;
    for (const view of views) {
      expect(view.mimeType).toBe('text/html;profile=mcp-app');
      const { contents } = await client.readResource({ uri: view.uri });
      const [page] = contents as Array<{ uri: string; mimeType: string; text: string; _meta?: any }>;
      expect(page?.mimeType).toBe('text/html;profile=mcp-app');
      expect(page?._meta?.ui?.csp?.resourceDomains).toEqual([origin]);
      expect(page?._meta?.ui?.csp?.connectDomains).toBeUndefined();
      // Self-contained: one inline script, nothing loaded from anywhere.
      expect(page?.text).toMatch(/^<!doctype html>/);
      expect(page?.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet|@import/);
    }
    const { tools } = await client.listTools();
    const meta = (name: string) => tools.find((t) => t.name === name)?._meta as any;
    expect(meta('discover')?.ui).toEqual({ resourceUri: 'ui://bm/people' });
    expect(meta('list_buddy_requests')?.ui).toEqual({ resourceUri: 'ui://bm/requests' });
    expect(meta('confirm_buddy_request')?.ui).toEqual({ resourceUri: 'ui://bm/send', visibility: ['app'] });
    expect(meta('get_inbox')).toBeUndefined();
  });

  it('gives a host without views the same result as before: send_buddy_request without confirm sends', async () => {
    const [from, to] = await users(2, 'Plain');
    const client = await connect(from.token);
    const result = await callTool(client, 'send_buddy_request', { slug: to.slug, message: 'Hi there' });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(JSON.parse(result.content[0]!.text!).request.state).toBe('pending');
    expect(result._meta).toBeUndefined();
  });

  it('refuses a confirm it does not know instead of sending without the person', async () => {
    const [from, to] = await users(2, 'Unsure');
    const client = await connect(from.token);
    const result = await callTool(client, 'send_buddy_request', { slug: to.slug, confirm: 'yes' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error 400 validation_failed: confirm must be "person"/);
    expect(JSON.parse(result.content[1]!.text!).error).toMatchObject({
      code: 'validation_failed',
      fields: { confirm: 'Expected "person"' },
    });
    const sent = await testDb().selectFrom('buddy_requests').select('id').where('sender_id', '=', from.id).execute();
    expect(sent).toEqual([]);
  });
});

describe('person confirmation of send_buddy_request (issue 32 §2)', () => {
  const received = async (token: string) =>
    (await api('GET', '/api/v1/buddy_requests.json', { token })).body.received as Array<{ message: string | null }>;

  it('sends nothing when prepared, refuses the model, an altered payload and another account; one tap sends once', async () => {
    const [asker, recipient, stranger] = await users(3, 'Confirm');
    const model = await connect(asker.token);
    const payload = { slug: recipient.slug, message: 'Climbing on Saturday?' };

    const prepared = await callTool(model, 'send_buddy_request', { ...payload, confirm: 'person' });
    expect(prepared.isError ?? false, textOf(prepared)).toBe(false);
    expect(textOf(prepared)).toContain('Not sent yet');
    const confirmation = prepared._meta?.['buddy-match/confirmation'];
    expect(confirmation.payload).toEqual(payload);
    // Only the view gets the token: nothing the model reads carries it.
    expect(textOf(prepared)).not.toContain(confirmation.token);
    expect(Date.parse(confirmation.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(await received(recipient.token)).toEqual([]);

    // The model calling the app-only tool itself: it has no token, and a guessed one is no better.
    for (const args of [payload, { ...payload, token: 'x'.repeat(43) }]) {
      const refused = await callTool(model, 'confirm_buddy_request', args);
      expect(refused.isError, textOf(refused)).toBe(true);
      expect(textOf(refused)).toContain('forbidden');
    }
    // An altered payload (another message, another recipient) with the real token.
    for (const altered of [
      { ...payload, message: 'Send me your address' },
      { ...payload, slug: stranger.slug },
      { ...payload, activityIds: ['hiking'] },
    ]) {
      const refused = await callTool(model, 'confirm_buddy_request', { ...altered, token: confirmation.token });
      expect(refused.isError, textOf(refused)).toBe(true);
    }
    // Another account holding the token.
    const other = await connect(stranger.token);
    const stolen = await callTool(other, 'confirm_buddy_request', { ...payload, token: confirmation.token });
    expect(stolen.isError, textOf(stolen)).toBe(true);
    expect(await received(recipient.token)).toEqual([]);

    // The person's tap: exactly what was shown, once.
    const tap = await callTool(model, 'confirm_buddy_request', { ...payload, token: confirmation.token });
    expect(tap.isError ?? false, textOf(tap)).toBe(false);
    expect(JSON.parse(tap.content[0]!.text!).request.message).toBe(payload.message);
    expect((await received(recipient.token)).map((r) => r.message)).toEqual([payload.message]);

    const replay = await callTool(model, 'confirm_buddy_request', { ...payload, token: confirmation.token });
    expect(replay.isError, textOf(replay)).toBe(true);
    expect(textOf(replay)).toContain('used, expired, or changed');
  });

  it('refuses a confirmation past its 15 minutes', async () => {
    const [asker, recipient] = await users(2, 'Expiry');
    const model = await connect(asker.token);
    const payload = { slug: recipient.slug };
    const prepared = await callTool(model, 'send_buddy_request', { ...payload, confirm: 'person' });
    const token = prepared._meta?.['buddy-match/confirmation']?.token as string;
    await testDb()
      .updateTable('person_confirmations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', asker.id)
      .execute();
    const late = await callTool(model, 'confirm_buddy_request', { ...payload, token });
    expect(late.isError, textOf(late)).toBe(true);
    expect(await received(recipient.token)).toEqual([]);
    await testDb().deleteFrom('person_confirmations').where('user_id', '=', asker.id).execute();
  });
});
