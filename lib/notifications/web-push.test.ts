import { describe, expect, it } from 'vitest';
import { endpointProblem, openPath, webPushPayload } from './web-push';
import type { PushNotification } from './push';

const note = (data: Record<string, string>, kind: PushNotification['kind'] = 'message'): PushNotification => ({
  kind,
  recipientId: 'r',
  actorId: 'a',
  title: 'Ana',
  body: 'Hi',
  data,
});

describe('endpointProblem', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc', null],
    ['https://updates.push.services.mozilla.com/wpush/v2/abc', null],
    ['http://fcm.googleapis.com/fcm/send/abc', /https/],
    ['https://fcm.googleapis.com:8443/x', /port 443/],
    ['https://user:pw@push.example.com/x', /credentials/],
    ['https://10.1.2.3/x', /private/],
    ['https://[::1]/x', /loopback/],
    ['https://169.254.169.254/latest', /link-local|private/],
    ['not a url', /https URL of a push service/],
  ])('%s', (endpoint, problem) => {
    const found = endpointProblem(endpoint, { allowLoopbackPorts: [] });
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('allows a test loopback port only when configured', () => {
    expect(endpointProblem('http://127.0.0.1:4555/push', { allowLoopbackPorts: [4555] })).toBeNull();
    expect(endpointProblem('http://127.0.0.1:4556/push', { allowLoopbackPorts: [4555] })).not.toBeNull();
  });
});

describe('the payload the service worker shows', () => {
  it('opens the chat for a message or an acceptance, the requests page for a request', () => {
    expect(openPath(note({ chatId: 'c1' }))).toBe('/account/chats/c1');
    expect(openPath(note({ requestId: 'r1' }, 'buddy_request'))).toBe('/account/requests');
    expect(JSON.parse(webPushPayload(note({ chatId: 'c/1' })))).toEqual({
      title: 'Ana',
      body: 'Hi',
      url: '/account/chats/c%2F1',
      tag: 'c/1',
    });
  });
});
