// Maps buddy request rows (with the other person's card) to the API record.
import type { BuddyRequestRow } from '@/db/types';
import type { BuddyRequestRecord } from '../contract/buddies';
import { toUserCard, type UserCardSource } from '../profiles/records';

export type BuddyRequestSource = Pick<
  BuddyRequestRow,
  'id' | 'sender_id' | 'recipient_id' | 'message' | 'activity_ids' | 'state' | 'chat_id' | 'created_at' | 'responded_at'
> & { other: UserCardSource };

export function toBuddyRequest(row: BuddyRequestSource, viewerId: string, baseUrl: string): BuddyRequestRecord {
  return {
    id: row.id,
    invitationId: row.id,
    state: row.state,
    direction: row.sender_id === viewerId ? 'sent' : 'received',
    message: row.message,
    activityIds: row.activity_ids,
    created_at: new Date(row.created_at).toISOString(),
    responded_at: row.responded_at ? new Date(row.responded_at).toISOString() : null,
    user: toUserCard(row.other, baseUrl),
    chatId: row.chat_id,
  };
}
