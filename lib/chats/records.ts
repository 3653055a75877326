// Maps chat and message rows to the API's records (one function per record type).
import type { ChatRecord, MessageRecord } from '../contract/chats';
import { type JoinedUserCardSource, toJoinedUserCard } from '../profiles/records';

export interface MessageSource {
  id: number | string;
  chat_id: string;
  sender_id: string;
  text: string;
  created_at: Date | string;
  /** The assistant that sent it for the sender (stored attribution), or null. */
  agent_name: string | null;
}

export function toMessage(row: MessageSource, viewerId: string): MessageRecord {
  const created = new Date(row.created_at);
  return {
    id: String(row.id),
    chatId: row.chat_id,
    sender_id: row.sender_id,
    from_me: row.sender_id === viewerId,
    text: row.text,
    created_at: created.toISOString(),
    created_at_ms: created.getTime(),
    agent_name: row.agent_name,
  };
}

export function messagesUrl(
  baseUrl: string,
  chatId: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return `${baseUrl}/api/v1/chats/${chatId}/messages.json${qs ? `?${qs}` : ''}`;
}

/** One chat as the member sees it: the chat, their marker, the buddy's card and the last message. */
export interface ChatSource extends JoinedUserCardSource {
  chat_id: string;
  unread_count: number;
  last_read_message_id: number;
  chat_created_at: Date;
  last_message_at: Date | null;
  lm_id: number | null;
  lm_sender_id: string | null;
  lm_text: string | null;
  lm_created_at: Date | null;
  lm_agent_name: string | null;
}

export function toChat(row: ChatSource, viewerId: string, baseUrl: string): ChatRecord {
  const lastMessage =
    row.lm_id !== null && row.lm_sender_id !== null && row.lm_text !== null && row.lm_created_at !== null
      ? toMessage(
          {
            id: row.lm_id,
            chat_id: row.chat_id,
            sender_id: row.lm_sender_id,
            text: row.lm_text,
            created_at: row.lm_created_at,
            agent_name: row.lm_agent_name,
          },
          viewerId,
        )
      : null;
  return {
    chatId: row.chat_id,
    buddy: toJoinedUserCard(row, baseUrl),
    last_message: lastMessage,
    unread_count: row.unread_count,
    created_at: new Date(row.chat_created_at).toISOString(),
    last_activity_at: new Date(row.last_message_at ?? row.chat_created_at).toISOString(),
    messages_url: messagesUrl(baseUrl, row.chat_id),
  };
}
