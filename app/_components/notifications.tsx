'use client';

// "Notifications on this device" on /account: registers the service worker (public/sw.js)
// on every account page, and turns Web Push on or off for this browser.
import { useEffect, useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

/** Registers the service worker once the page has loaded (offline page, push display). */
export function ServiceWorker() {
  useEffect(() => {
    if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  }, []);
  return null;
}

type State = 'checking' | 'unsupported' | 'denied' | 'off' | 'on' | 'working';

const keyBytes = (base64url: string) => {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
};

export function NotificationsOptIn({ publicKey }: { publicKey: string }) {
  const [state, setState] = useState<State>('checking');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
      setState('unsupported');
      return;
    }
    if (Notification.permission === 'denied') {
      setState('denied');
      return;
    }
    void navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => setState(subscription ? 'on' : 'off'))
      .catch(() => setState('off'));
  }, []);

  async function turnOn() {
    setState('working');
    setProblem(null);
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        setState('denied');
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      const saved = await sendJson('POST', paths.webPush(), subscription.toJSON());
      if (!saved.ok) {
        await subscription.unsubscribe();
        setProblem(saved.error.message);
        setState('off');
        return;
      }
      setState('on');
    } catch {
      setProblem('This browser could not turn notifications on. Try again later, or in another browser.');
      setState('off');
    }
  }

  async function turnOff() {
    setState('working');
    setProblem(null);
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      await sendJson('DELETE', paths.webPush(), { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    setState('off');
  }

  return (
    <section className="card stack" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications on this device</h2>
      {state === 'unsupported' ? (
        <p>This browser cannot show notifications. The app, or another browser, can.</p>
      ) : null}
      {state === 'denied' ? (
        <p>Notifications are blocked for this site. Allow them in your browser’s site settings, then come back.</p>
      ) : null}
      {state === 'on' ? (
        <p>This browser tells you about new messages and buddy requests. You can mute a chat from the chat itself.</p>
      ) : null}
      {state === 'off' || state === 'checking' || state === 'working' ? (
        <p>Get told about new messages and buddy requests, even when this page is closed.</p>
      ) : null}
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
      <p className="actions">
        {state === 'on' ? (
          <button type="button" className="button-secondary" onClick={() => void turnOff()}>
            Turn off notifications
          </button>
        ) : state === 'off' || state === 'working' ? (
          <button
            type="button"
            onClick={() => void turnOn()}
            disabled={state === 'working'}
            aria-busy={state === 'working'}
          >
            Turn on notifications
          </button>
        ) : null}
      </p>
    </section>
  );
}

/** Mute or unmute one chat's notifications (every device: the app and each browser). */
export function MuteChat({ chatId, initiallyMuted }: { chatId: string; initiallyMuted: boolean }) {
  const [muted, setMuted] = useState(initiallyMuted);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function toggle() {
    setBusy(true);
    setProblem(null);
    const result = await sendJson<{ muted: boolean }>('POST', paths.mute({ chatId }), { muted: !muted });
    if (result.ok) setMuted(result.data.muted);
    else setProblem(result.error.message);
    setBusy(false);
  }

  return (
    <p className="actions small">
      <span className="muted">
        {muted ? 'Notifications for this chat are off.' : 'You get notifications for this chat.'}
      </span>
      <button
        type="button"
        className="button-secondary"
        onClick={() => void toggle()}
        disabled={busy}
        aria-pressed={muted}
      >
        {muted ? 'Unmute' : 'Mute notifications'}
      </button>
      {problem ? <span role="alert">{problem}</span> : null}
    </p>
  );
}
