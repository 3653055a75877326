'use client';
// The person's chats, most recent first, with unread badges; GET /api/v1/chats.json
// every 10 s keeps it current while the tab is visible.
import { useEffect } from 'react';
import useSWR from 'swr';
import { paths } from '@/lib/contract/paths';
import type { ChatRecord } from '@/lib/contract/chats';
import { getJson } from './api-client';
import { keepForOffline } from './offline-copy';
import { Avatar } from './avatar';
import { RefreshProblem } from './fields';
import { TimeAgo } from './time-ago';

export const CHATS_URL = paths.chats();
const REFRESH_MS = 10_000;

export interface ChatLists {
  chats: ChatRecord[];
  total_unread: number;
}

export function UnreadBadge({ count, noun }: { count: number; noun: string }) {
  if (count === 0) return null;
  return (
    <span className="count-badge">
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> {count === 1 ? `unread ${noun}` : `unread ${noun}s`}</span>
    </span>
  );
}

/** `person`: the signed-in person's id, for the offline copy of the list (offline-copy.ts). */
export function ChatList({ initial, person }: { initial: ChatLists; person: string }) {
  const { data, error } = useSWR<ChatLists>(CHATS_URL, getJson, { fallbackData: initial, refreshInterval: REFRESH_MS });
  const { chats } = data ?? initial;
  useEffect(() => keepForOffline(person, { kind: 'chats', chats }), [person, chats]);
  return (
    <>
      <RefreshProblem error={error} />
      {chats.length === 0 ? (
        <p className="muted">
          No chats yet. A chat opens when someone accepts a buddy request: see{' '}
          <a href="/account/requests">Buddy requests</a> or <a href="/account/discover">find buddies</a>.
        </p>
      ) : (
        <ul className="chat-list" aria-label="Your chats">
          {chats.map((chat) => (
            <ChatRow key={chat.chatId} chat={chat} />
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * One chat in a list: photo, name with its unread badge and when, and under them the last
 * words across the whole row, cut with an ellipsis at its end (issue 31).
 */
export function ChatRow({ chat }: { chat: ChatRecord }) {
  return (
    <li className={chat.unread_count > 0 ? 'unread' : undefined}>
      <a href={`/account/chats/${chat.chatId}`}>
        <Avatar name={chat.buddy.displayName} photoURL={chat.buddy.photoURL} size="small" />
        <span className="chat-list-text">
          <span className="chat-list-name">
            {chat.buddy.displayName} <UnreadBadge count={chat.unread_count} noun="message" />
          </span>
          <span className="chat-list-time muted">
            <TimeAgo value={chat.last_activity_at} />
          </span>
          <span className="chat-list-preview">
            {chat.last_message
              ? `${chat.last_message.from_me ? 'You: ' : ''}${chat.last_message.text}`
              : 'No messages yet: say hello.'}
          </span>
        </span>
      </a>
    </li>
  );
}
