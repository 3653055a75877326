// Data for the inbox and poll benchmarks: a person with buddies, chats, unread
// messages and pending requests, written as the app would write them, and a crowd
// of other people so the tables are big enough for the planner to pick indexes.
import { sql } from 'kysely';
import type { Database } from '../db';

export interface Profile {
  label: string;
  chats: number;
  messagesPerChat: number;
  /** Chats with unread messages, and how many each. */
  unreadChats: number;
  unreadPerChat: number;
  pendingRequests: number;
}

let ipCounter = 0;
const freshIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

export async function register(baseUrl: string, name: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${baseUrl}/api/v1/register.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.com`, displayName: name, emailMagicLink: false }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; auth: { token: string } };
  return { id: body.user.id, token: body.auth.token };
}

/**
 * Seeds `me`'s buddies, chats and messages as the app would have written them:
 * ids and created_at rising together within each chat, read markers and unread
 * counters consistent, chats.last_message_* in step, some accepted requests
 * inside the inbox's 7-day window and some pending ones.
 */
export async function seed(db: Database, me: string, tag: string, p: Profile): Promise<void> {
  const buddies = p.chats + p.pendingRequests;
  await sql`
    insert into users (email, password_hash, slug, display_name, public_location, created_at)
    select ${tag} || '-' || g || '@example.com', 'x', ${tag} || '-' || g, 'Buddy ' || g, 'Berlin, DE', now() - interval '120 days'
    from generate_series(1, ${buddies}) g`.execute(db);
  await sql`
    create temporary table bench_buddies on commit drop as
    select id, row_number() over (order by created_at, slug) as n from users where slug like ${`${tag}-%`}`.execute(db);
  // Accepted requests from me, one per buddy, answered 1..50 days ago.
  await sql`
    insert into connections (user_a, user_b, created_at)
    select least(${me}::uuid, b.id), greatest(${me}::uuid, b.id), now() - interval '100 days' from bench_buddies b where b.n <= ${p.chats}`.execute(
    db,
  );
  await sql`
    insert into chats (connection_id, created_at)
    select k.id, k.created_at from connections k where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid`.execute(db);
  await sql`
    insert into chat_members (chat_id, user_id, other_user_id)
    select c.id, ${me}::uuid, case when k.user_a = ${me}::uuid then k.user_b else k.user_a end
    from chats c join connections k on k.id = c.connection_id where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid
    union all
    select c.id, case when k.user_a = ${me}::uuid then k.user_b else k.user_a end, ${me}::uuid
    from chats c join connections k on k.id = c.connection_id where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid`.execute(
    db,
  );
  await sql`
    insert into buddy_requests (sender_id, recipient_id, message, state, chat_id, created_at, responded_at)
    select ${me}::uuid, b.id, 'Want to go hiking?', 'accepted', cm.chat_id, now() - (b.n + 1) * interval '1 day', now() - b.n * interval '1 day'
    from bench_buddies b join chat_members cm on cm.user_id = ${me}::uuid and cm.other_user_id = b.id where b.n <= ${p.chats}`.execute(
    db,
  );
  await sql`
    insert into buddy_requests (sender_id, recipient_id, message, created_at)
    select b.id, ${me}::uuid, 'Climbing on Sunday?', now() - b.n * interval '1 minute' from bench_buddies b where b.n > ${p.chats}`.execute(
    db,
  );
  // Messages: alternating senders, one a minute per chat up to now, in id order.
  await sql`
    insert into messages (chat_id, sender_id, text, created_at)
    select cm.chat_id, case when g % 2 = 0 then ${me}::uuid else cm.other_user_id end,
           'Bench message ' || g || ': see you at the trailhead at nine, bring water and snacks',
           date_trunc('milliseconds', now() - (${p.messagesPerChat} - g) * interval '1 minute' - b.n * interval '1 second')
    from chat_members cm join bench_buddies b on b.id = cm.other_user_id, generate_series(1, ${p.messagesPerChat}) g
    where cm.user_id = ${me}::uuid
    order by cm.chat_id, g`.execute(db);
  await sql`
    update chats c set last_message_id = m.max_id, last_message_at = m.max_at
    from (select chat_id, max(id) as max_id, max(created_at) as max_at from messages group by chat_id) m
    where m.chat_id = c.id and c.last_message_id is null`.execute(db);
  // The buddies have read everything; I have read everything except the last
  // `unreadPerChat` of their messages in `unreadChats` chats.
  await sql`
    update chat_members cm set last_read_message_id = c.last_message_id
    from chats c where c.id = cm.chat_id and cm.other_user_id = ${me}::uuid`.execute(db);
  await sql`
    update chat_members cm set last_read_message_id = coalesce((
      select m.id from messages m where m.chat_id = cm.chat_id and m.sender_id = cm.other_user_id
      order by m.id desc offset ${p.unreadPerChat} limit 1), 0)
    from bench_buddies b where cm.user_id = ${me}::uuid and b.id = cm.other_user_id and b.n <= ${p.unreadChats}`.execute(
    db,
  );
  await sql`
    update chat_members cm set last_read_message_id = c.last_message_id
    from chats c, bench_buddies b where c.id = cm.chat_id and cm.user_id = ${me}::uuid and b.id = cm.other_user_id and b.n > ${p.unreadChats}`.execute(
    db,
  );
  await sql`
    update chat_members cm set unread_count = (
      select count(*) from messages m where m.chat_id = cm.chat_id and m.sender_id <> cm.user_id and m.id > cm.last_read_message_id)
    where cm.user_id = ${me}::uuid`.execute(db);
  await sql`analyze`.execute(db);
}

/**
 * Everyone else: 20,000 users with 100,000 buddy requests among them and 10,000
 * chats, so the tables the inbox reads are big enough for the planner to show
 * which indexes it uses (on tiny tables a sequential scan is cheaper and chosen).
 */
export async function seedBackground(db: Database): Promise<void> {
  const users = 20_000;
  await sql`
    insert into users (email, password_hash, slug, display_name, created_at)
    select 'crowd-' || g || '@example.com', 'x', 'crowd-' || g, 'Crowd ' || g, now() - interval '200 days'
    from generate_series(1, ${users}) g`.execute(db);
  await sql`create temporary table crowd on commit drop as
    select id, row_number() over (order by slug) as n from users where slug like 'crowd-%'`.execute(db);
  await sql`create index on crowd (n)`.execute(db);
  await sql`
    insert into buddy_requests (sender_id, recipient_id, state, created_at, responded_at)
    select s.id, r.id, (array['pending', 'declined', 'cancelled', 'declined', 'cancelled'])[k],
           now() - (s.n % 90) * interval '1 day', case when k = 1 then null else now() - (s.n % 90) * interval '1 day' + interval '1 hour' end
    from crowd s cross join generate_series(1, 5) k join crowd r on r.n = s.n + k
    where s.n <= ${users - 5}`.execute(db);
  await sql`
    insert into connections (user_a, user_b) select least(a.id, b.id), greatest(a.id, b.id)
    from crowd a join crowd b on b.n = a.n + 10 where a.n % 2 = 0 and a.n <= ${users - 10}`.execute(db);
  await sql`insert into chats (connection_id) select k.id from connections k join crowd a on a.id = k.user_a`.execute(
    db,
  );
  await sql`
    insert into chat_members (chat_id, user_id, other_user_id, unread_count)
    select c.id, k.user_a, k.user_b, (random() * 3)::int from chats c join connections k on k.id = c.connection_id join crowd a on a.id = k.user_a
    union all
    select c.id, k.user_b, k.user_a, 0 from chats c join connections k on k.id = c.connection_id join crowd a on a.id = k.user_a`.execute(
    db,
  );
}
