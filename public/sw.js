// Buddy Match's service worker: shows Web Push notifications (new messages and buddy
// requests) and opens the page they are about; while offline, account pages show the
// offline page instead of the browser's error, with the chats as last seen.
//
// The offline copy of the chats is one person's only: the page that shows them hands
// them over (postMessage) with the person's id, and the copy lives in a cache named for
// that person. A copy for anyone else is deleted first, and every copy is deleted when
// someone signs in or out (any navigation to /auth/…), deletes the account, or is sent to
// sign in. Nothing here answers an API request from a cache: HTTP responses keep their
// `private, no-store`, and the copy is read only by the offline page's own script.
const CACHE = 'buddy-match-shell-v2';
const OFFLINE_URL = '/offline';
const PERSON_CACHE_PREFIX = 'buddy-match-offline-';
/** The newest messages kept per thread: what fits a screen or two. */
const THREAD_MESSAGES = 50;
/** Threads kept, the most recently seen first. */
const THREADS = 20;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' }))));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith('buddy-match-shell-') && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Deletes every person's offline copy except `keep`'s (all of them without one). */
async function forgetChats(keep) {
  const keys = await caches.keys();
  await Promise.all(
    keys
      .filter((key) => key.startsWith(PERSON_CACHE_PREFIX) && key !== PERSON_CACHE_PREFIX + keep)
      .map((key) => caches.delete(key)),
  );
}

const json = (value) =>
  new Response(JSON.stringify(value), {
    headers: { 'content-type': 'application/json', 'cache-control': 'private, no-store' },
  });

/** Keeps what the offline page shows, for `person` alone. */
async function remember(message) {
  const person = typeof message.person === 'string' ? message.person : '';
  if (!/^[\w-]{1,80}$/.test(person)) return;
  await forgetChats(person);
  const cache = await caches.open(PERSON_CACHE_PREFIX + person);
  if (message.kind === 'chats' && Array.isArray(message.chats)) {
    await cache.put('/offline/chats', json({ chats: message.chats, saved_at: Date.now() }));
  } else if (message.kind === 'thread' && typeof message.chatId === 'string' && Array.isArray(message.messages)) {
    const thread = {
      chatId: message.chatId,
      buddy: String(message.buddy || ''),
      messages: message.messages.slice(-THREAD_MESSAGES),
      saved_at: Date.now(),
    };
    await cache.put(`/offline/thread/${encodeURIComponent(message.chatId)}`, json(thread));
    const threads = await cache.keys();
    const stale = threads.filter((r) => new URL(r.url).pathname.startsWith('/offline/thread/')).slice(0, -THREADS);
    await Promise.all(stale.map((r) => cache.delete(r)));
  }
}

self.addEventListener('message', (event) => {
  if (event.origin && event.origin !== self.location.origin) return;
  if (event.data && event.data.type === 'offline-copy') event.waitUntil(remember(event.data));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Signing in or out (or in as someone else), and deleting the account: no copy survives it.
  if (
    (request.mode === 'navigate' && url.pathname.startsWith('/auth/')) ||
    (request.method === 'DELETE' && url.pathname === '/api/v1/me.json')
  ) {
    event.waitUntil(forgetChats());
    return;
  }
  if (request.mode !== 'navigate' || !url.pathname.startsWith('/account')) return;
  event.respondWith(
    fetch(request).then(
      (response) => {
        // Sent to sign in: nobody is signed in here now, so nobody's chats stay.
        if (new URL(response.url || request.url).pathname.startsWith('/signin')) event.waitUntil(forgetChats());
        return response;
      },
      () => caches.match(OFFLINE_URL, { cacheName: CACHE }),
    ),
  );
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
