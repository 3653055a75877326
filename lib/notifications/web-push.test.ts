import { describe, expect, it } from 'vitest';
import { KNOWN_PUSH_SERVICE_HOSTS } from './push-services';
import { endpointProblem, openPath, webPushPayload } from './web-push';

const allowedHosts = [...KNOWN_PUSH_SERVICE_HOSTS];
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
    ['https://web.push.apple.com/QGuQyavXutnMSqW7', null],
    ['https://wns2-par02p.notify.windows.com/w/?token=abc', null],
    ['https://FCM.googleapis.com./fcm/send/abc', null],
    // Any other public host: the server would POST there for every notification.
    ['https://push.example.com/x', /push.example.com is not a browser push service/],
    ['https://evilfcm.googleapis.com/x', /not a browser push service/],
    ['https://push.apple.com.evil.example/x', /not a browser push service/],
    ['https://notify.windows.com/x', /not a browser push service/],
  ])('%s', (endpoint, problem) => {
    const found = endpointProblem(endpoint, { allowLoopbackPorts: [], allowedHosts });
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('allows a test loopback port only when configured', () => {
    expect(endpointProblem('http://127.0.0.1:4555/push', { allowLoopbackPorts: [4555], allowedHosts })).toBeNull();
    expect(endpointProblem('http://127.0.0.1:4556/push', { allowLoopbackPorts: [4555], allowedHosts })).not.toBeNull();
  });

  it('an operator may name other push services (WEB_PUSH_ALLOWED_HOSTS), which replace the known ones', () => {
    const policy = { allowLoopbackPorts: [], allowedHosts: ['push.example.org', '*.push.example.net'] };
    expect(endpointProblem('https://push.example.org/x', policy)).toBeNull();
    expect(endpointProblem('https://eu.push.example.net/x', policy)).toBeNull();
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', policy)).toMatch(/not a browser push service/);
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
