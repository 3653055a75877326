import { describe, expect, it } from 'vitest';
import { deliverNotification, heldCount, subscribe, WAKE_BATCH } from '../realtime/listener';
import {
  chatKey,
  inboxTag,
  lookUntilChanged,
  MAX_HELD_POLLS_PER_ACCOUNT,
  type PollHolder,
  userKey,
  versionTag,
} from './poll';

const anyone = (account = 'a'): PollHolder => ({ account, stillAllowed: async () => {} });

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
    expect(await lookUntilChanged(userKey('a'), undefined, look, () => false, anyone())).toEqual({
      value: 1,
      timedOut: false,
    });
    expect(await lookUntilChanged(userKey('a'), 5, look, () => true, anyone())).toEqual({ value: 2, timedOut: false });
  });

  it('holds until the deadline when nothing changes', async () => {
    const started = Date.now();
    const result = await lookUntilChanged(
      userKey('quiet'),
      1,
      async () => 'same',
      () => false,
      anyone(),
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
      anyone(),
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
      anyone(),
    );
    expect(await held).toEqual({ value: 2, timedOut: false });
  });
});

describe('held polls of one account', () => {
  it(`past ${MAX_HELD_POLLS_PER_ACCOUNT}, the oldest is answered at once ("nothing new") and the newest keep holding`, async () => {
    const answered: number[] = [];
    const polls = Array.from({ length: MAX_HELD_POLLS_PER_ACCOUNT + 3 }, (_, i) =>
      lookUntilChanged(
        userKey('many'),
        10,
        async () => i,
        () => false,
        anyone('many'),
      ).then((result) => {
        answered.push(i);
        return result;
      }),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(answered.sort((a, b) => a - b)).toEqual([0, 1, 2]);
    expect(await polls[0]).toEqual({ value: 0, timedOut: true });
    // Another account's polls are not counted against this one.
    const other = lookUntilChanged(
      userKey('other'),
      10,
      async () => 'x',
      () => false,
      anyone('other'),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toHaveLength(3);
    deliverNotification('u:other');
    deliverNotification('u:many');
    await new Promise((r) => setTimeout(r, 50));
    // Woken, they look again; nothing new, so they hold on (the cap still counts them).
    expect(answered).toHaveLength(3);
    const newest = lookUntilChanged(
      userKey('many'),
      10,
      async () => 'n',
      () => false,
      anyone('many'),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(answered.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    void other;
    void newest;
  });

  it('a poll whose credentials were revoked while it waited is refused, not answered', async () => {
    let revoked = false;
    let version = 1;
    const holder: PollHolder = {
      account: 'revoked',
      stillAllowed: async () => {
        if (revoked) throw new Error('revoked');
      },
    };
    const held = lookUntilChanged(
      userKey('revoked'),
      10,
      async () => version,
      (v) => v > 1,
      holder,
    );
    await new Promise((r) => setTimeout(r, 20));
    revoked = true;
    version = 2;
    deliverNotification('u:revoked');
    await expect(held).rejects.toThrow('revoked');
  });

  it('one change that wakes many waiters wakes them a batch per turn of the event loop', async () => {
    const count = WAKE_BATCH * 3;
    let woken = 0;
    const waits = Array.from({ length: count }, () =>
      subscribe([chatKey('crowded')])
        .wait(5_000)
        .then(() => woken++),
    );
    deliverNotification('c:crowded');
    await Promise.resolve();
    // The first batch's promises settle in this turn's microtasks; the rest wait for setImmediate.
    await new Promise((r) => process.nextTick(r));
    expect(woken).toBe(WAKE_BATCH);
    await new Promise((r) => setImmediate(r));
    expect(woken).toBe(WAKE_BATCH * 2);
    await Promise.all(waits);
    expect(woken).toBe(count);
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
