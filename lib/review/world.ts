// The review account (REVIEW_ACCOUNT, issue 47): one account an app directory's reviewer signs in
// to without signing up and without a second factor, with sample buddies to try every flow on.
// Its people carry users.review_sandbox (migration 0039): they have no Discover postings, and they
// and real members answer each other as no one (lib/ages/reach.ts, lib/meetups/records.ts).
//
// At each start of the process that runs the jobs the world is made afresh: what a reviewer changed
// is gone. With the switch off it is removed. Both go through the account deletion path
// (lib/accounts/delete.ts eraseAccount: tokens, sessions, OAuth grants, photos retired), then the
// rows go (the sandbox's chats, plans, requests and meetups are between its own people only, and
// cascade with them), so nothing is left and nothing accumulates from start to start.
// Under a session advisory lock: two processes starting at once run one after the other.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { eraseAccount } from '../accounts/delete';
import { uniqueSlug } from '../accounts/slug';
import { acceptBuddyRequest, createBuddyRequest } from '../buddies/requests';
import { sendMessage } from '../chats/messages';
import { hostMeetupBodySchema } from '../contract/meetups';
import { proposePlanBodySchema } from '../contract/plans';
import { profileUpdateSchema } from '../contract/profiles';
import { hashPassword } from '../core/secrets';
import type { LimitRule } from '../limits/rules';
import { hostMeetup, joinMeetup } from '../meetups/meetups';
import { setMailPreferences } from '../notifications/mail-preferences';
import type { BlobRef } from '../photos/storage';
import { answerPlan, proposePlan } from '../plans/plans';
import { missingFields } from '../profiles/onboarding';
import { labelFromPublicPoint, resolveProfileInput, timezoneColumns } from '../profiles/fields';
import { SAMPLE_PEOPLE, type SamplePerson } from './sample';

const LOCK = 'review-account';
const DAY_MS = 24 * 3_600_000;

export interface ReviewWorldOptions {
  /** The review account's sign-in address; null: REVIEW_ACCOUNT is off, remove the world. */
  email: string | null;
  /** Its password in clear (./credentials.ts): only its hash is stored. */
  password: string;
  baseUrl: string;
  /** The limits the domain functions take (config().limits). */
  limits: { messages: LimitRule; meetups_hosted: LimitRule };
  reminderOffsets: readonly number[];
  /** Deletes the blobs of a photo a reviewer uploaded, once their rows are gone. */
  deleteBlobs: (refs: readonly BlobRef[]) => Promise<void>;
  now?: Date;
}

export type ReviewWorldOutcome =
  | { action: 'seeded'; removed: number; people: number; reviewer: { id: string; slug: string } }
  | { action: 'removed'; removed: number };

/** Makes the review world afresh, or removes it when `email` is null; one process at a time. */
export async function maintainReviewWorld(db: Database, options: ReviewWorldOptions): Promise<ReviewWorldOutcome> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${LOCK}, 0))`.execute(conn);
    try {
      const removed = await removeReviewWorld(conn, options.deleteBlobs);
      if (options.email === null) return { action: 'removed' as const, removed };
      return {
        action: 'seeded' as const,
        removed,
        ...(await seedReviewWorld(conn, { ...options, email: options.email })),
      };
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${LOCK}, 0))`.execute(conn);
    }
  });
}

/** Deletes every review person and all they own; returns how many there were. */
export async function removeReviewWorld(
  db: Database,
  deleteBlobs: (refs: readonly BlobRef[]) => Promise<void>,
): Promise<number> {
  const { ids, blobs } = await db.transaction().execute(async (trx) => {
    const people = await trx
      .selectFrom('users')
      .select(['id', 'disabled_at'])
      .where('review_sandbox', '=', true)
      .forUpdate()
      .execute();
    if (people.length === 0) return { ids: [], blobs: [] };
    for (const person of people) if (!person.disabled_at) await eraseAccount(trx, person.id);
    const ids = people.map((person) => person.id);
    const photos = await trx
      .selectFrom('photos')
      .select(['image_key', 'image_url', 'thumbnail_key', 'thumbnail_url'])
      .where('user_id', 'in', ids)
      .execute();
    // What the people share goes first, while they still exist: deleting it bumps their inbox
    // versions (0013's triggers), which a cascade from the users' own delete could not write.
    await trx.deleteFrom('meetups').where('host_id', 'in', ids).execute();
    const chats = trx.selectFrom('chat_members').select('chat_id').where('user_id', 'in', ids);
    await trx.deleteFrom('chats').where('id', 'in', chats).execute();
    await trx
      .deleteFrom('connections')
      .where((w) => w.or([w('user_a', 'in', ids), w('user_b', 'in', ids)]))
      .execute();
    await trx.deleteFrom('meetup_attendees').where('user_id', 'in', ids).execute();
    await trx.deleteFrom('users').where('id', 'in', ids).execute();
    const blobs = photos.flatMap((p) => [
      { key: p.image_key, url: p.image_url },
      { key: p.thumbnail_key, url: p.thumbnail_url },
    ]);
    return { ids, blobs };
  });
  // After the commit: the photo-deletion job eraseAccount queued finds no row any more.
  if (blobs.length > 0) await deleteBlobs(blobs);
  return ids.length;
}

/** One review person, complete, as their profile says; mail to them is off (nobody reads it). */
async function createPerson(db: Database, person: SamplePerson, email: string, passwordHash: string) {
  const input = profileUpdateSchema.parse(person.profile);
  const { columns } = resolveProfileInput(input);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('users')
      .values({
        ...columns,
        ...timezoneColumns(input, columns, null),
        email,
        password_hash: passwordHash,
        slug: await uniqueSlug(trx, person.profile.displayName),
        display_name: person.profile.displayName,
        photo_url: `/demo-avatars/${person.avatar}`,
        review_sandbox: true,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user: UserRow = await labelFromPublicPoint(trx, inserted);
    await trx
      .updateTable('users')
      .set({ onboarding_complete: missingFields(user).length === 0 })
      .where('id', '=', user.id)
      .execute();
    await setMailPreferences(trx, user.id, { reminders: false, checkins: false, digests: false });
    return user;
  });
}

/** "2026-06-06T10:00" on the people's own clock (Lisbon), `days` from now. */
function localAt(now: Date, days: number, hour: number): string {
  const day = new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  return `${day}T${String(hour).padStart(2, '0')}:00`;
}

async function seedReviewWorld(db: Database, options: ReviewWorldOptions & { email: string }) {
  const now = options.now ?? new Date();
  const { baseUrl } = options;
  const by = {};
  // The sample people never sign in: a hash of nothing anyone knows (as a deleted account's).
  const reviewerHash = await hashPassword(options.password);
  const people = new Map<SamplePerson['role'], UserRow>();
  for (const person of SAMPLE_PEOPLE) {
    const reviewer = person.role === 'reviewer';
    const email = reviewer ? options.email : `review-sample-${person.role}@review.invalid`;
    people.set(person.role, await createPerson(db, person, email, reviewer ? reviewerHash : 'review-sample'));
  }
  const reviewer = people.get('reviewer')!;
  const who = (role: SamplePerson['role']) => people.get(role)!;

  // Buddies: each asked, the reviewer said yes; the chats open with their words.
  const befriend = async (role: SamplePerson['role'], message: string, reply: string) => {
    const asked = await createBuddyRequest(db, {
      viewerId: who(role).id,
      slugOrId: reviewer.id,
      body: { message, activityIds: [] },
      baseUrl,
    });
    const accepted = await acceptBuddyRequest(db, {
      viewerId: reviewer.id,
      requestId: asked.request.id,
      body: { firstMessage: reply },
      baseUrl,
    });
    return accepted.chat.chatId;
  };
  const say = (viewerId: string, chatId: string, text: string) =>
    sendMessage(db, { viewerId, chatId, body: { text }, messageLimit: options.limits.messages });

  const anaChat = await befriend('chat', 'Hi! You like hiking too. Sintra some weekend?', 'Hi Ana, gladly!');
  await say(who('chat').id, anaChat, 'Great. Do you know the trail up to the Cruz Alta?');
  await say(reviewer.id, anaChat, 'Not yet. How long does it take?');
  await say(who('chat').id, anaChat, 'About three hours with a coffee stop. I will send you a plan.');
  // A plan Ana proposed, waiting for the reviewer's answer.
  await proposePlan(db, {
    viewerId: who('chat').id,
    chatId: anaChat,
    body: proposePlanBodySchema.parse({
      activity: 'hiking',
      starts_at: localAt(now, 4, 9),
      ends_at: localAt(now, 4, 13),
      place: { name: 'Sintra train station', address: 'Av. Dr. Miguel Bombarda, Sintra' },
      note: 'Bring water and good shoes.',
    }),
    by,
    baseUrl,
    now,
  });

  const marcoChat = await befriend('plans', 'Ciao! Coastal hike sometime?', 'Hi Marco, yes!');
  await say(who('plans').id, marcoChat, 'Cascais to Guincho on Saturday morning?');
  // A plan the reviewer proposed and Marco accepted: confirmed.
  const proposed = await proposePlan(db, {
    viewerId: reviewer.id,
    chatId: marcoChat,
    body: proposePlanBodySchema.parse({
      activity: 'hiking',
      starts_at: localAt(now, 6, 10),
      ends_at: localAt(now, 6, 13),
      place: { name: 'Cascais train station', address: 'Largo da Estação, Cascais' },
    }),
    by,
    baseUrl,
    now,
  });
  await answerPlan(db, {
    viewerId: who('plans').id,
    planId: proposed.plan.id,
    answer: 'accept',
    by,
    baseUrl,
    now,
    reminderOffsets: options.reminderOffsets,
  });

  await befriend('host', 'Hi! Board games on Thursday? I host.', 'Sounds fun, count me in.');
  // Priya's board game evening, with the reviewer in a seat.
  const hosted = await hostMeetup(db, {
    viewerId: who('host').id,
    body: hostMeetupBodySchema.parse({
      activity: 'board games',
      starts_at: localAt(now, 3, 19),
      ends_at: localAt(now, 3, 22),
      place: { name: 'Café Tabuleiro', address: 'Rua da Rosa 50, Lisboa' },
      capacity: 6,
      join: 'open',
      note: 'Catan and Codenames; beginners welcome.',
    }),
    by,
    baseUrl,
    limit: options.limits.meetups_hosted,
    now,
  });
  await joinMeetup(db, { viewerId: reviewer.id, meetupId: hosted.meetup.id, by, baseUrl, now });

  // A request waiting for the reviewer's answer.
  await createBuddyRequest(db, {
    viewerId: who('asks').id,
    slugOrId: reviewer.id,
    body: { message: 'Hi! Fancy a bike ride along the river this weekend?', activityIds: [] },
    baseUrl,
  });

  return { people: people.size, reviewer: { id: reviewer.id, slug: reviewer.slug } };
}
