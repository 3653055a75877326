// The offline page (GET /offline): what the service worker (public/sw.js) shows for an
// account page while there is no connection. Plain HTML, its own few lines of CSS and one
// small script: no framework, so it says "You're offline" without ~135 KB of JavaScript.
// The script shows the chats as last seen, from the copy the service worker keeps for the
// signed-in person (never anyone else's; see sw.js). Message text is set as textContent only.

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5;color:#1b1f24}
body{margin:0}main{max-width:40rem;margin:0 auto;padding:1rem}
a{color:#0b57a4}a.button{display:inline-block;padding:.6rem 1.1rem;border-radius:10px;background:#0b57a4;color:#fff;
text-decoration:none;font-weight:600;min-height:44px}
.muted{color:#505a66}ul{list-style:none;padding:0;margin:0}
.chats li{border-bottom:1px solid #d5dbe3}.chats a{display:block;padding:.6rem 0;min-height:44px;text-decoration:none;color:inherit}
.chats b{display:block}.chats span{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:#505a66}
.thread li{margin:.4rem 0;padding:.5rem .75rem;border-radius:10px;background:#f5f7fa;max-width:85%}
.thread li.mine{margin-left:auto;background:#e6f0fa}.thread small{display:block;color:#505a66}
.thread p{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}`;

// Runs in the browser, offline. Kept in ES2017 with no imports: it is sent as it is written.
const SCRIPT = `(async () => {
  const out = document.getElementById('last-seen');
  if (!('caches' in self)) return;
  const keys = (await caches.keys()).filter((k) => k.startsWith('buddy-match-offline-'));
  if (keys.length !== 1) return;
  const cache = await caches.open(keys[0]);
  const read = async (path) => { const r = await cache.match(path); return r ? r.json() : null; };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text != null) e.textContent = text;
    if (cls) e.className = cls; return e; };
  const when = (iso) => { const d = new Date(iso); return isNaN(d) ? '' : d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }); };
  const m = location.pathname.match(/^\\/account\\/chats\\/([^/]+)$/);
  const thread = m ? await read('/offline/thread/' + encodeURIComponent(decodeURIComponent(m[1]))) : null;
  if (thread) {
    out.append(el('h2', 'Chat with ' + thread.buddy + ', as last seen'));
    const list = el('ul', null, 'thread');
    list.setAttribute('aria-label', 'Messages');
    for (const msg of thread.messages) {
      const li = el('li', null, msg.from_me ? 'mine' : '');
      li.append(el('small', (msg.from_me ? 'You' : thread.buddy) + ' · ' + when(msg.created_at)), el('p', msg.text));
      list.append(li);
    }
    const back = el('a', 'All chats');
    back.href = '/account/chats';
    const p = el('p');
    p.append(back);
    out.append(list, p);
    return;
  }
  const saved = await read('/offline/chats');
  if (!saved || saved.chats.length === 0) return;
  out.append(el('h2', 'Your chats, as last seen'));
  const list = el('ul', null, 'chats');
  list.setAttribute('aria-label', 'Your chats');
  for (const chat of saved.chats) {
    const a = el('a');
    a.href = '/account/chats/' + encodeURIComponent(chat.chatId);
    const last = chat.last_message;
    a.append(el('b', chat.buddy), el('span', last ? (last.from_me ? 'You: ' : '') + last.text : 'No messages yet.'));
    const li = el('li');
    li.append(a);
    list.append(li);
  }
  out.append(list);
})().catch(() => undefined);`;

const escapeAttribute = (value: string) => value.replace(/[^A-Za-z0-9+/=]/g, '');

/** The whole page; `nonce` is this response's CSP nonce (proxy.ts), on its style and script. */
export function offlinePageHtml(nonce: string): string {
  const n = escapeAttribute(nonce);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>You are offline · Buddy Match</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml"><style nonce="${n}">${STYLE}</style></head>
<body><main>
<h1>You’re offline</h1>
<p>Buddy Match needs a connection to send messages and show what is new. Nothing you sent is lost: messages that
went through are on the server.</p>
<p><a class="button" href="/account">Try again</a></p>
<section id="last-seen" aria-live="polite"></section>
</main><script nonce="${n}">${SCRIPT}</script></body></html>`;
}
