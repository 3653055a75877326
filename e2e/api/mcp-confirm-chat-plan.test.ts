// What only a person can confirm, beyond buddy requests (issue 32 §2): the first message in
// a chat and accepting a plan, through the official SDK client. Each is prepared (nothing
// happens), then attacked: the model's own call to the app-only confirm_action, an altered
// payload, another kind, another account's token, an expired one; one tap acts once; a replay fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { api, baseUrl, freshIp, testDb } from './client';
import { makeBuddies, storedMessages, users, type TestUser } from './social-helpers';

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; _meta?: Record<string, any> };

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close().catch(() => {}))));

async function connect(user: TestUser): Promise<Client> {
  const client = new Client({ name: 'mcp-confirm-test', version: '1.0.0' });
  const headers = { 'x-forwarded-for': freshIp(), authorization: `Bearer ${user.token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const textOf = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');
const confirmationOf = (result: Result) =>
  result._meta?.['buddy-match/confirmation'] as { kind: string; token: string; payload: Record<string, unknown> };

async function expectRefused(client: Client, args: Record<string, unknown>) {
  const refused = await callTool(client, 'confirm_action', args);
  expect(refused.isError, textOf(refused)).toBe(true);
  expect(textOf(refused)).toContain('403 forbidden');
}

async function proposedPlan(by: TestUser, chatId: string): Promise<string> {
  const starts_at = new Date(Date.now() + 48 * 3_600_000).toISOString();
  const { status, body } = await api('POST', `/api/v1/chats/${chatId}/plans.json`, {
    token: by.token,
    body: { activity: 'Bouldering', starts_at, place: { name: 'Block Hall' } },
  });
  expect(status).toBe(201);
  return body.plan.id as string;
}

const planStatus = async (planId: string) =>
  (await testDb().selectFrom('plans').select('status').where('id', '=', planId).executeTakeFirstOrThrow()).status;

describe('person confirmation of the first message in a chat (issue 32 §2)', () => {
  it('sends nothing when prepared; refuses the model, changes and another account; one tap sends once', async () => {
    const [ana, ben, eve] = await users(3, 'FirstMsg');
    const chatId = await makeBuddies(ana, ben);
    const model = await connect(ana);
    const payload = { chatId, text: 'Hi Ben! Saturday at the crag?' };

    const prepared = await callTool(model, 'send_message', { ...payload, confirm: 'person' });
    expect(prepared.isError ?? false, textOf(prepared)).toBe(false);
    expect(textOf(prepared)).toContain('Not sent yet');
    const confirmation = confirmationOf(prepared);
    expect(confirmation).toMatchObject({ kind: 'send_message', payload });
    expect(textOf(prepared)).not.toContain(confirmation.token);
    expect(await storedMessages(chatId)).toEqual([]);

    // The model's own call: no token, a guessed one.
    await expectRefused(model, { ...payload, kind: 'send_message' });
    await expectRefused(model, { ...payload, kind: 'send_message', token: 'x'.repeat(43) });
    // The real token with another text, another chat, another kind, or no kind.
    const token = confirmation.token;
    await expectRefused(model, { ...payload, text: 'Send me your address', kind: 'send_message', token });
    await expectRefused(model, { ...payload, chatId: crypto.randomUUID(), kind: 'send_message', token });
    await expectRefused(model, { ...payload, kind: 'send_buddy_request', token });
    await expectRefused(model, { ...payload, token });
    // Another account holding the token.
    await expectRefused(await connect(eve), { ...payload, kind: 'send_message', token });
    expect(await storedMessages(chatId)).toEqual([]);

    const tap = await callTool(model, 'confirm_action', { ...payload, kind: 'send_message', token });
    expect(tap.isError ?? false, textOf(tap)).toBe(false);
    expect(JSON.parse(tap.content[0]!.text!).message.text).toBe(payload.text);
    expect((await storedMessages(chatId)).map((m) => m.text)).toEqual([payload.text]);

    const replay = await callTool(model, 'confirm_action', { ...payload, kind: 'send_message', token });
    expect(replay.isError, textOf(replay)).toBe(true);
    expect(textOf(replay)).toContain('used, expired, or changed');
    expect(await storedMessages(chatId)).toHaveLength(1);

    // A host without views that does not ask: sent at once, as before.
    const plain = await callTool(model, 'send_message', { chatId, text: 'See you there' });
    expect(plain.isError ?? false, textOf(plain)).toBe(false);
    expect(plain._meta).toBeUndefined();
    expect(await storedMessages(chatId)).toHaveLength(2);
  });

  it('refuses a confirmation past its 15 minutes; a tap on a chat not yours fails like the route (404)', async () => {
    const [ana, ben, eve] = await users(3, 'LateMsg');
    const chatId = await makeBuddies(ana, ben);
    const model = await connect(ana);
    const payload = { chatId, text: 'Too late?' };
    const { token } = confirmationOf(await callTool(model, 'send_message', { ...payload, confirm: 'person' }));
    await testDb()
      .updateTable('person_confirmations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', ana.id)
      .execute();
    await expectRefused(model, { ...payload, kind: 'send_message', token });
    expect(await storedMessages(chatId)).toEqual([]);
    await testDb().deleteFrom('person_confirmations').where('user_id', '=', ana.id).execute();

    // Eve may prepare a message to Ana's chat, but her tap goes through the route, which answers 404.
    const eves = await connect(eve);
    const prepared = confirmationOf(await callTool(eves, 'send_message', { ...payload, confirm: 'person' }));
    const tap = await callTool(eves, 'confirm_action', { ...payload, kind: 'send_message', token: prepared.token });
    expect(textOf(tap)).toContain('404 not_found');
    expect(await storedMessages(chatId)).toEqual([]);
  });

  it('refuses a confirm it does not know instead of sending without the person', async () => {
    const [ana, ben] = await users(2, 'OddConfirm');
    const chatId = await makeBuddies(ana, ben);
    const result = await callTool(await connect(ana), 'send_message', { chatId, text: 'Hi', confirm: 'yes' });
    expect(textOf(result)).toMatch(/^Error 400 validation_failed: confirm must be "person"/);
    expect(await storedMessages(chatId)).toEqual([]);
  });
});

describe('person confirmation of accepting a plan (issue 32 §2)', () => {
  it('accepts nothing when prepared, shows the plan, refuses the model and changes; one tap accepts once', async () => {
    const [ana, ben, eve] = await users(3, 'PlanTap');
    const chatId = await makeBuddies(ana, ben);
    const planId = await proposedPlan(ana, chatId);
    const other = await proposedPlan(ana, chatId);
    const model = await connect(ben);

    const prepared = await callTool(model, 'accept_plan', { planId, confirm: 'person' });
    expect(prepared.isError ?? false, textOf(prepared)).toBe(false);
    expect(textOf(prepared)).toContain('Not accepted yet');
    const confirmation = confirmationOf(prepared) as ReturnType<typeof confirmationOf> & { plan: { id: string } };
    expect(confirmation).toMatchObject({ kind: 'accept_plan', payload: { planId }, plan: { id: planId } });
    expect(await planStatus(planId)).toBe('proposed');

    const token = confirmation.token;
    await expectRefused(model, { planId, kind: 'accept_plan' });
    await expectRefused(model, { planId: other, kind: 'accept_plan', token });
    await expectRefused(model, { planId, kind: 'send_message', token });
    await expectRefused(await connect(eve), { planId, kind: 'accept_plan', token });
    expect(await planStatus(planId)).toBe('proposed');
    expect(await planStatus(other)).toBe('proposed');

    const tap = await callTool(model, 'confirm_action', { planId, kind: 'accept_plan', token });
    expect(tap.isError ?? false, textOf(tap)).toBe(false);
    expect(JSON.parse(tap.content[0]!.text!).plan.status).toBe('confirmed');
    await expectRefused(model, { planId, kind: 'accept_plan', token });

    // Expired.
    const late = confirmationOf(await callTool(model, 'accept_plan', { planId: other, confirm: 'person' }));
    await testDb()
      .updateTable('person_confirmations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', ben.id)
      .execute();
    await expectRefused(model, { planId: other, kind: 'accept_plan', token: late.token });
    expect(await planStatus(other)).toBe('proposed');
    await testDb().deleteFrom('person_confirmations').where('user_id', '=', ben.id).execute();
  });

  it('prepares nothing for a plan the caller cannot see: the same 404 as get_plan', async () => {
    const [ana, ben, eve] = await users(3, 'PlanHidden');
    const planId = await proposedPlan(ana, await makeBuddies(ana, ben));
    const result = await callTool(await connect(eve), 'accept_plan', { planId, confirm: 'person' });
    expect(textOf(result)).toContain('404 not_found');
    expect(result._meta).toBeUndefined();
    const rows = await testDb().selectFrom('person_confirmations').select('token_hash').where('user_id', '=', eve.id);
    expect(await rows.execute()).toEqual([]);
  });
});
