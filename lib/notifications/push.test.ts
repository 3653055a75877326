import { describe, expect, it } from 'vitest';
import { buildExpoMessages, preview, pushJobSchema, type PushNotification } from './push';

const notification: PushNotification = {
  kind: 'message',
  recipientId: 'r',
  actorId: 'a',
  title: 'Alex',
  body: 'See you at nine',
  data: { type: 'message', chatId: 'chat-1', messageId: '42' },
};

describe('push payloads', () => {
  it('builds one Expo message per device, collapsing pushes of one chat', () => {
    expect(buildExpoMessages(['ExponentPushToken[a]', 'ExponentPushToken[b]'], notification)).toEqual([
      {
        to: 'ExponentPushToken[a]',
        title: 'Alex',
        body: 'See you at nine',
        data: notification.data,
        sound: 'default',
        priority: 'high',
        channelId: 'messages',
        collapseId: 'chat-1',
        tag: 'chat-1',
      },
      {
        to: 'ExponentPushToken[b]',
        title: 'Alex',
        body: 'See you at nine',
        data: notification.data,
        sound: 'default',
        priority: 'high',
        channelId: 'messages',
        collapseId: 'chat-1',
        tag: 'chat-1',
      },
    ]);
  });

  it('does not collapse buddy requests, which have no chat', () => {
    const [message] = buildExpoMessages(['ExponentPushToken[a]'], {
      ...notification,
      kind: 'buddy_request',
      data: { type: 'buddy_request', requestId: 'q' },
    });
    expect(message).toMatchObject({ channelId: 'buddies' });
    expect(message).not.toHaveProperty('collapseId');
  });

  it('shortens long texts to a one-line preview', () => {
    expect(preview('  hello\n\nthere  ')).toBe('hello there');
    const long = preview('word '.repeat(100));
    expect(long).toHaveLength(140);
    expect(long.endsWith('…')).toBe(true);
  });

  it('accepts only the job shapes the app enqueues', () => {
    expect(pushJobSchema.safeParse({ kind: 'message', recipientId: 'r', chatId: 'c', messageId: 1 }).success).toBe(
      true,
    );
    expect(pushJobSchema.safeParse({ kind: 'message', recipientId: 'r', chatId: 'c' }).success).toBe(false);
    expect(pushJobSchema.safeParse({ kind: 'unknown', recipientId: 'r' }).success).toBe(false);
  });
});
