// The six calls llms.txt opens with, run as a new agent would run them: read /llms.txt,
// copy each curl (method, URL, body), fill in only what the text says to fill in (the
// token, a slug from Discover, a chat id), and check every answer field the text names.
import { describe, expect, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { uploadPhoto } from '@/lib/contract/photos';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { sendMessage } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { makeImage } from '@/e2e/support/photos/test-images';
import { api, baseUrl, registerUser, testDb, uniqueEmail } from './client';
import { call as callSpec } from './contract-client';

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  authorized: boolean;
  fields: string[];
}

/** The numbered steps of llms.txt: each "Answer:" field list and the curl block after it. */
function callsOf(text: string): Call[] {
  const steps = [...text.matchAll(/^\d+\. .*? Answer: (.*)\.\n\n```\ncurl -X (\w+) '([^']+)'((?:.|\n)*?)\n```/gm)];
  return steps.map(([, fields, method, url, rest]) => {
    const data = /-d '(.*)'$/m.exec(rest!)?.[1];
    return {
      method: method!,
      path: decodeURI(new URL(url!).pathname) + new URL(url!).search,
      body: data ? (JSON.parse(data) as Record<string, unknown>) : undefined,
      authorized: rest!.includes('Authorization: Bearer <auth.token>'),
      fields: [...fields!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    };
  });
}

/** The value at a dotted path; "[]" steps into the first element (absent in an empty list is fine). */
function hasPath(value: unknown, path: string): boolean {
  let node: unknown = value;
  for (const part of path.split('.')) {
    const name = part.replace('[]', '');
    if (!node || typeof node !== 'object' || !(name in node)) return false;
    node = (node as Record<string, unknown>)[name];
    if (part.endsWith('[]')) {
      if (!Array.isArray(node)) return false;
      if (node.length === 0) return true;
      node = node[0];
    }
  }
  return true;
}

describe('llms.txt: from zero to a first message in the six calls it shows', () => {
  it('works as written', async () => {
    const text = await (await fetch(`${baseUrl()}/llms.txt`)).text();
    const calls = callsOf(text);
    expect(calls.map((c) => `${c.method} ${c.path.split('?')[0]}`)).toEqual([
      'POST /api/v1/register.json',
      'POST /api/v1/me/photo.json',
      'GET /api/v1/discover.json',
      'POST /api/v1/users/{slug}/buddy_request.json',
      'GET /api/v1/inbox.json',
      'POST /api/v1/chats/{chatId}/messages.json',
    ]);
    const [signup, photo, discover, ask, inbox, hello] = calls as [Call, Call, Call, Call, Call, Call];
    const buddy = await registerUser({ displayName: 'Trail Buddy' });

    // 1. The example body as printed, with the person's own email.
    // The paths and bodies are the text's own (so raw requests); each answer is read through its contract schema.
    const registered = await api(signup.method, signup.path, { body: { ...signup.body, email: uniqueEmail('happy') } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const token = register.response.parse(registered.body).auth.token;
    const call = async (c: Call, path = c.path, body = c.body) => {
      const res = await api(c.method, path, { token: c.authorized ? token : undefined, body });
      expect(res.status, `${c.method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      for (const field of c.fields) expect(hasPath(res.body, field), `${c.path}: ${field}`).toBe(true);
      return res;
    };
    for (const field of signup.fields) expect(hasPath(registered.body, field), field).toBe(true);

    // 2. A real photo in place of the shortened base64; it completes the profile.
    const photoAnswer = await call(photo, photo.path, {
      ...photo.body,
      photo: (await makeImage('jpeg')).toString('base64'),
    });
    expect(uploadPhoto.response.parse(photoAnswer.body).onboarding).toEqual({
      complete: true,
      missing: [],
      awaiting_person_consent: false,
    });

    // 3-4. Discover as printed; then ask someone (the test's own buddy, by slug).
    await call(discover);
    const asked = sendBuddyRequest.response.parse((await call(ask, ask.path.replace('{slug}', buddy.slug))).body);
    expect(asked.outcome).toBe('created');

    // They accept; 5. the long-poll answers with the chat.
    await callSpec(acceptBuddyRequest, { params: { invitationId: asked.request.id }, token: buddy.token, body: {} });
    const polled = getInbox.response.parse((await call(inbox)).body);
    const chatId = polled.accepted_requests[0]?.chatId;

    // 6. The first message, stored in that chat.
    expect(chatId).toBeTypeOf('string');
    const sent = sendMessage.response.parse((await call(hello, hello.path.replace('{chatId}', String(chatId)))).body);
    const stored = await testDb()
      .selectFrom('messages')
      .select(['chat_id', 'text'])
      .where('id', '=', Number(sent.message.id))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ chat_id: chatId, text: hello.body?.text });
  });
});
