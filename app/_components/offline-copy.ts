// Hands what a page shows to the service worker (public/sw.js), which keeps it for the
// offline page: the signed-in person's chats list and the threads they opened, as last seen.
// `person` is the signed-in person's id: the worker keeps one person's copy only.
import type { ChatRecord, MessageRecord } from '@/lib/contract/chats';

type OfflineCopy =
  | { kind: 'person' }
  | { kind: 'chats'; chats: readonly ChatRecord[] }
  | { kind: 'thread'; chatId: string; buddy: string; messages: readonly MessageRecord[] };

/** The offline page needs the words and who said them, nothing more. */
function slim(copy: OfflineCopy) {
  if (copy.kind === 'person') return copy;
  if (copy.kind === 'chats') {
    return {
      kind: copy.kind,
      chats: copy.chats.map((chat) => ({
        chatId: chat.chatId,
        buddy: chat.buddy.displayName,
        last_message: chat.last_message && { text: chat.last_message.text, from_me: chat.last_message.from_me },
      })),
    };
  }
  return {
    ...copy,
    messages: copy.messages.slice(-50).map((m) => ({ text: m.text, from_me: m.from_me, created_at: m.created_at })),
  };
}

export function keepForOffline(person: string, copy: OfflineCopy): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready
    .then((registration) => registration.active?.postMessage({ type: 'offline-copy', person, ...slim(copy) }))
    .catch(() => undefined);
}
