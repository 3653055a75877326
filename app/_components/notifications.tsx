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

type State = 'checking' | 'unsupported' | 'install' | 'denied' | 'off' | 'on' | 'working';

/** iPhone or iPad (iPadOS says it is a Mac, but one with a touch screen): every browser there is Safari's WebKit. */
function isIos(): boolean {
  return (
    /\b(iPhone|iPad|iPod)\b/.test(navigator.userAgent) ||
    (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1)
  );
}

/** Opened from the Home Screen (Safari sets navigator.standalone; the manifest asks for display-mode standalone). */
function isInstalled(): boolean {
  return (
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    window.matchMedia('(display-mode: standalone)').matches
  );
}

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
    // iOS has Web Push only for a site added to the Home Screen (16.4 and later), in any of its browsers.
    if (isIos() && !isInstalled()) {
      setState('install');
      return;
    }
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
        <p>
          This browser cannot show notifications. Instead, we mail you what you missed, at most once an hour (see Mail,
          below).
        </p>
      ) : null}
      {state === 'install' ? <AddToHomeScreen /> : null}
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

/** The iPhone's way to notifications: Share, then Add to Home Screen, pictured as Safari shows them. */
function AddToHomeScreen() {
  return (
    <div className="stack">
      <p>On iPhone and iPad, notifications work once Buddy Match is on your Home Screen:</p>
      <ol className="install-steps">
        <li>
          Tap <strong>Share</strong> <ShareIcon /> (in Safari’s toolbar, or in your browser’s menu).
        </li>
        <li>
          Choose <strong>Add to Home Screen</strong>, then <strong>Add</strong>.
        </li>
        <li>Open Buddy Match from your Home Screen, come back here and turn notifications on.</li>
      </ol>
      <svg
        className="install-picture"
        viewBox="0 0 264 96"
        width="264"
        height="96"
        role="img"
        aria-label="Safari’s Share button, then Add to Home Screen in the list that opens"
      >
        <rect x="1" y="1" width="262" height="94" rx="12" fill="#f2f2f7" stroke="#c7c7cc" />
        <rect x="12" y="30" width="36" height="36" rx="8" fill="#fff" stroke="#007aff" strokeWidth="2" />
        <g fill="none" stroke="#007aff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M24 44h-2v14h16V44h-2M30 50V36m-4 4 4-4 4 4" />
          <path d="M56 48h16m-5-5 5 5-5 5" />
        </g>
        <rect x="80" y="28" width="174" height="40" rx="8" fill="#fff" stroke="#c7c7cc" />
        <text x="90" y="53" fontSize="12" fontFamily="system-ui, sans-serif" fill="#1c1c1e">
          Add to Home Screen
        </text>
        <rect x="224" y="38" width="20" height="20" rx="4" fill="none" stroke="#1c1c1e" strokeWidth="1.5" />
        <path d="M234 42v12m-6-6h12" stroke="#1c1c1e" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
      <p>Until then, we mail you what you missed, at most once an hour (see Mail, below).</p>
    </div>
  );
}

function ShareIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" className="inline-icon">
      <path
        d="M7 8H5v10h10V8h-2M10 12V2M7 5l3-3 3 3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
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
