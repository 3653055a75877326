import { describe, expect, it } from 'vitest';
import { deliverNotification, heldCount, subscribe } from '../realtime/listener';
import { chatKey, inboxTag, lookUntilChanged, userKey, versionTag } from './poll';

describe('versionTag', () => {
  it('is weak, and differs by version, kind, person and query', () => {
    const base = versionTag('inbox', '7', ['u1']);
    expect(base).toMatch(/^W\/"inbox-7-[\w-]+"$/);
    expect(
      new Set([
        base,
        versionTag('inbox', '8', ['u1']),
        versionTag('chats', '7', ['u1']),
        versionTag('inbox', '7', ['u2']),
        versionTag('inbox', '7', ['u1', true]),
      ]).size,
    ).toBe(5);
    expect(versionTag('inbox', '7', ['u1'])).toBe(base);
  });
});

describe('inboxTag', () => {
  it('differs between tokens that do and do not see plans (buddy:read), and not by other scopes', () => {
    const withPlans = inboxTag('7', 'u1', ['message:read', 'buddy:read']);
    expect(inboxTag('7', 'u1', ['message:read'])).not.toBe(withPlans);
    expect(inboxTag('7', 'u1', ['buddy:read', 'message:read', 'profile:read'])).toBe(withPlans);
  });
});

describe('lookUntilChanged', () => {
  it('answers at once without wait, or when the first look is already new', async () => {
    let looks = 0;
    const look = async () => ++looks;
    expect(await lookUntilChanged(userKey('a'), undefined, look, () => false)).toEqual({ value: 1, timedOut: false });
    expect(await lookUntilChanged(userKey('a'), 5, look, () => true)).toEqual({ value: 2, timedOut: false });
  });

  it('holds until the deadline when nothing changes', async () => {
    const started = Date.now();
    const result = await lookUntilChanged(
      userKey('quiet'),
      1,
      async () => 'same',
      () => false,
    );
    expect(result).toEqual({ value: 'same', timedOut: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('looks again when its key is notified, and only its key', async () => {
    let version = 1;
    const held = lookUntilChanged(
      chatKey('c1'),
      10,
      async () => version,
      (v) => v > 1,
    );
    await new Promise((r) => setTimeout(r, 20));
    deliverNotification('c:other-chat');
    deliverNotification('u:c1');
    version = 2;
    const started = Date.now();
    deliverNotification('c:c1');
    expect(await held).toEqual({ value: 2, timedOut: false });
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('a change between the look and the wait is not missed (subscribed before looking)', async () => {
    let version = 1;
    const held = lookUntilChanged(
      userKey('racy'),
      10,
      async () => {
        const seen = version;
        // The change commits (and is notified) right after this look read the old state.
        version = 2;
        deliverNotification('u:racy');
        return seen;
      },
      (v) => v > 1,
    );
    expect(await held).toEqual({ value: 2, timedOut: false });
  });
});

describe('a subscription cancelled while it waits', () => {
  it('ends the wait at once (a client that hung up frees its timer) and is no longer woken', async () => {
    const subscription = subscribe([userKey('gone')]);
    const started = Date.now();
    const waiting = subscription.wait(10_000);
    expect(heldCount()).toBeGreaterThanOrEqual(1);
    const before = heldCount();
    subscription.cancel();
    expect(await waiting).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(200);
    expect(heldCount()).toBe(before - 1);
    deliverNotification('u:gone');
  });
});
