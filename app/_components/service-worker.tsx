'use client';

// On every account page: registers the service worker (public/sw.js). Its own module, so
// the account pages do not ship the notification settings' code (notifications.tsx).
import { useEffect } from 'react';
import { keepForOffline } from './offline-copy';

/**
 * Registers the service worker once the page has loaded (offline page, push display), and
 * tells it who is signed in: it drops an offline copy of anyone else's chats (offline-copy.ts).
 */
export function ServiceWorker({ person }: { person: string }) {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    keepForOffline(person, { kind: 'person' });
  }, [person]);
  return null;
}
