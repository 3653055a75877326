// "Download my data" (GDPR Art. 20, issue 31): everything the service holds about the
// person, as one JSON document. Photos are listed by URL and metadata, not embedded: the
// current one can be downloaded from its URL, and retired ones no longer exist (their
// blobs are deleted). Other people appear only as they appear to the person in the app:
// slug and display name, and the messages they sent into the person's own chats, never
// their email, birthday, place or anything from chats the person is not in.
// Secrets never appear: tokens and links are stored only as hashes, and none is selected.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { mailPreferences } from '../notifications/mail-preferences';
import { toPhotoRecord } from '../photos/photos';
import { getUserOrThrow } from '../profiles/profile';
import { coordsAudience, toOwnProfile } from '../profiles/records';

export const EXPORT_FORMAT = 'buddy-match-export/1' as const;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The person's data export; see "Your data" in docs/decisions/accounts-and-profiles.md for the shape. */
export async function exportAccountData(db: Database, userId: string, baseUrl: string) {
  const user = await getUserOrThrow(db, userId);
  const [photos, requests, chats, messages, plans, blocks, reports, tokens, actions, mail] = await Promise.all([
    db.selectFrom('photos').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    db
      .selectFrom('buddy_requests as r')
      .innerJoin('users as o', (join) =>
        join.on(sql<boolean>`o.id = case when r.sender_id = ${userId} then r.recipient_id else r.sender_id end`),
      )
      .select([
        'r.id',
        'r.sender_id',
        'r.message',
        'r.activity_ids',
        'r.state',
        'r.chat_id',
        'r.agent_name',
        'r.responder_agent_name',
        'r.created_at',
        'r.responded_at',
        'o.slug',
        'o.display_name',
      ])
      .where((w) => w.or([w('r.sender_id', '=', userId), w('r.recipient_id', '=', userId)]))
      .orderBy('r.created_at')
      .execute(),
    db
      .selectFrom('chat_members as cm')
      .innerJoin('chats as c', 'c.id', 'cm.chat_id')
      .innerJoin('users as o', 'o.id', 'cm.other_user_id')
      .select(['cm.chat_id', 'c.created_at', 'cm.muted', 'o.slug', 'o.display_name'])
      .where('cm.user_id', '=', userId)
      .orderBy('c.created_at')
      .execute(),
    db
      .selectFrom('messages as m')
      .innerJoin('chat_members as cm', (join) =>
        join.onRef('cm.chat_id', '=', 'm.chat_id').on('cm.user_id', '=', userId),
      )
      .select(['m.id', 'm.chat_id', 'm.sender_id', 'm.text', 'm.agent_name', 'm.created_at'])
      .orderBy('m.chat_id')
      .orderBy('m.id')
      .execute(),
    db
      .selectFrom('plans')
      .select([
        'id',
        'chat_id',
        'proposer_id',
        'activity',
        'starts_at',
        'ends_at',
        'place_name',
        'place_address',
        'note',
        'status',
        'agent_name',
        'created_at',
      ])
      .where((w) => w.or([w('proposer_id', '=', userId), w('recipient_id', '=', userId)]))
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('blocks as b')
      .innerJoin('users as o', 'o.id', 'b.blocked_id')
      .select(['o.slug', 'o.display_name', 'b.created_at'])
      .where('b.blocker_id', '=', userId)
      .execute(),
    db
      .selectFrom('reports')
      .select(['reason', 'text', 'created_at'])
      .where('reporter_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('access_tokens')
      .select(['id', 'label', 'agent_name', 'scopes', 'oauth_client_id', 'created_at', 'last_used_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('agent_actions')
      .select(['action', 'agent_name', 'agent_session_id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
    mailPreferences(db, userId),
  ]);

  const messagesByChat = new Map<string, typeof messages>();
  for (const m of messages) messagesByChat.set(m.chat_id, [...(messagesByChat.get(m.chat_id) ?? []), m]);

  return {
    format: EXPORT_FORMAT,
    exported_at: new Date().toISOString(),
    profile: toOwnProfile(user, baseUrl, coordsAudience({ via: 'session' })),
    photos: photos.map(toPhotoRecord),
    buddy_requests: requests.map((r) => ({
      id: r.id,
      direction: r.sender_id === userId ? ('sent' as const) : ('received' as const),
      with: { slug: r.slug, displayName: r.display_name },
      state: r.state,
      message: r.message,
      activityIds: r.activity_ids,
      chatId: r.chat_id,
      // The person's own side's assistant only.
      agent_name: r.sender_id === userId ? r.agent_name : r.responder_agent_name,
      created_at: iso(r.created_at),
      responded_at: iso(r.responded_at),
    })),
    chats: chats.map((c) => ({
      chatId: c.chat_id,
      with: { slug: c.slug, displayName: c.display_name },
      created_at: iso(c.created_at),
      muted: c.muted,
      messages: (messagesByChat.get(c.chat_id) ?? []).map((m) => ({
        id: m.id,
        from_me: m.sender_id === userId,
        text: m.text,
        agent_name: m.sender_id === userId ? m.agent_name : null,
        created_at: iso(m.created_at),
      })),
    })),
    plans: plans.map((p) => ({
      id: p.id,
      chatId: p.chat_id,
      proposed_by_me: p.proposer_id === userId,
      activity: p.activity,
      starts_at: iso(p.starts_at),
      ends_at: iso(p.ends_at),
      place_name: p.place_name,
      place_address: p.place_address,
      note: p.note,
      status: p.status,
      agent_name: p.proposer_id === userId ? p.agent_name : null,
      created_at: iso(p.created_at),
    })),
    blocked: blocks.map((b) => ({ slug: b.slug, displayName: b.display_name, created_at: iso(b.created_at) })),
    reports_filed: reports.map((r) => ({ reason: r.reason, text: r.text, created_at: iso(r.created_at) })),
    mail_preferences: mail,
    assistants: {
      tokens: tokens.map((t) => ({
        id: t.id,
        label: t.label,
        agent_name: t.agent_name,
        scopes: t.scopes,
        oauth_client_id: t.oauth_client_id,
        created_at: iso(t.created_at),
        last_used_at: iso(t.last_used_at),
        revoked_at: iso(t.revoked_at),
      })),
      actions: actions.map((a) => ({
        action: a.action,
        agent_name: a.agent_name,
        agent_session_id: a.agent_session_id,
        at: iso(a.created_at),
      })),
    },
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccountData>>;
