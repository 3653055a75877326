// Who is looking at a profile, and what they may see of it and do with it: the member
// view for a signed-in person (unless a block stands between them), the public view for
// everyone else; and for the /u/{slug} page, where the two people stand (request, chat).
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { connected } from '../ages/reach';
import { blockStatus } from '../blocks/status';
import type { ProfileView } from '../contract/profiles';

/** The view of `target`'s profile for `viewerId` (null: nobody signed in). */
export async function profileViewFor(
  db: Database,
  viewerId: string | null,
  target: Pick<UserRow, 'id'>,
): Promise<ProfileView> {
  if (!viewerId) return 'public';
  if (viewerId === target.id) return 'member';
  const blocks = await blockStatus(db, { viewerId, otherId: target.id });
  return blocks.byMe || blocks.byThem ? 'public' : 'member';
}

/** Where the viewer stands with the person whose profile they look at: what the main button does. */
export type Standing =
  | { kind: 'self' }
  | { kind: 'blocked' }
  | { kind: 'buddies'; chatId: string | null }
  | { kind: 'request_sent'; requestId: string }
  | { kind: 'request_received'; requestId: string; message: string | null }
  | { kind: 'none' };

export async function standingWith(
  db: Database,
  { viewerId, targetId }: { viewerId: string; targetId: string },
): Promise<Standing> {
  if (viewerId === targetId) return { kind: 'self' };
  const blocks = await blockStatus(db, { viewerId, otherId: targetId });
  if (blocks.byMe || blocks.byThem) return { kind: 'blocked' };
  const chat = await db
    .selectFrom('chat_members')
    .select('chat_id')
    .where('user_id', '=', viewerId)
    .where('other_user_id', '=', targetId)
    .executeTakeFirst();
  if (chat || (await connected(db, viewerId, targetId))) return { kind: 'buddies', chatId: chat?.chat_id ?? null };
  const pending = await db
    .selectFrom('buddy_requests')
    .select(['id', 'sender_id', 'message'])
    .where('state', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.and([eb('sender_id', '=', viewerId), eb('recipient_id', '=', targetId)]),
        eb.and([eb('sender_id', '=', targetId), eb('recipient_id', '=', viewerId)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!pending) return { kind: 'none' };
  return pending.sender_id === viewerId
    ? { kind: 'request_sent', requestId: pending.id }
    : { kind: 'request_received', requestId: pending.id, message: pending.message };
}
