// Buddy Match's service worker: shows Web Push notifications (new messages and buddy
// requests) and opens the page they are about; while offline, account pages show the
// offline page instead of the browser's error. Nothing personal is cached.
const CACHE = 'buddy-match-shell-v1';
const OFFLINE_URL = '/offline';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' }))));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.mode !== 'navigate' || !new URL(request.url).pathname.startsWith('/account')) return;
  event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
});

/** Only a path on this site: a push payload cannot send the person elsewhere. */
function pathOf(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/account';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Buddy Match', {
      body: data.body || '',
      tag: data.tag,
      renotify: Boolean(data.tag),
      icon: '/icons/icon-192.png',
      data: { url: pathOf(data.url) },
    }),
  );
});

// A tap opens the chat or the requests: in a Buddy Match window already open, else a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(pathOf(event.notification.data?.url), self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      const shown = open.url === url ? open : await open.navigate(url);
      return (shown || open).focus().catch(() => undefined);
    }),
  );
});
