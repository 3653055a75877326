'use client';
// The overview as a home screen: requests waiting for an answer (Accept / Decline right
// on the card), chats with unread messages and their newest words. The lists are the
// same calls as the Requests and Chats pages (GET /api/v1/buddy_requests.json and
// /api/v1/chats.json, shared SWR keys), kept current while the page is open; answering
// refreshes the tab bar's badges (INBOX_URL) too.
import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { paths } from '@/lib/contract/paths';
import type { BuddyRequestRecord } from '@/lib/contract/buddies';
import { INBOX_URL } from '@/lib/web/account-nav';
import { getJson, sendJson } from './api-client';
import { Avatar } from './avatar';
import { answeredNotice, REQUESTS_URL, type Outcome, type RequestLists } from './buddy-requests';
import { ChatRow, CHATS_URL, type ChatLists } from './chat-list';
import { RefreshProblem } from './fields';
import { TimeAgo } from './time-ago';

const REFRESH_MS = 15_000;
/** Cards shown on the home screen; the rest are a tap away. */
const SHOWN = 5;

function RequestCard({
  request,
  activityNames,
  onDone,
}: {
  request: BuddyRequestRecord;
  activityNames: Record<string, string>;
  onDone: (o: Outcome) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const { user } = request;
  const name = user.displayName;

  async function answer(action: 'accept' | 'decline') {
    setBusy(true);
    const result = await sendJson<{ chat?: { chatId: string } }>(
      'POST',
      paths[`${action}Request`]({ invitationId: request.id }),
    );
    setBusy(false);
    if (!result.ok) return onDone({ tone: 'error', text: result.error.message });
    return onDone(answeredNotice(action, name, result.data.chat?.chatId ?? null));
  }

  return (
    <li className="card home-request">
      <div className="person">
        <Avatar name={name} photoURL={user.photoURL} size="small" />
        <div className="person-text">
          <h3>
            <a href={`/u/${encodeURIComponent(user.slug)}`}>{name}</a>
          </h3>
          <p className="muted">
            {user.location ? `${user.location} · ` : ''}
            <TimeAgo value={request.created_at} />
          </p>
          {request.message ? <p className="quote">{request.message}</p> : null}
          {request.activityIds.length > 0 ? (
            <p className="muted">{request.activityIds.map((id) => activityNames[id] ?? id).join(', ')}</p>
          ) : null}
        </div>
      </div>
      <div className="actions">
        <button
          type="button"
          disabled={busy}
          onClick={() => void answer('accept')}
          aria-label={`Accept ${name}’s request`}
        >
          Accept
        </button>
        <button
          type="button"
          className="button-secondary"
          disabled={busy}
          onClick={() => void answer('decline')}
          aria-label={`Decline ${name}’s request`}
        >
          Decline
        </button>
      </div>
    </li>
  );
}

export function HomeRequests({
  initial,
  activityNames,
}: {
  initial: RequestLists;
  activityNames: Record<string, string>;
}) {
  const { data, error, mutate } = useSWR<RequestLists>(REQUESTS_URL, getJson, {
    fallbackData: initial,
    refreshInterval: REFRESH_MS,
  });
  const { mutate: refresh } = useSWRConfig();
  const [outcome, setOutcome] = useState<Outcome>();
  const waiting = (data ?? initial).received.filter((r) => r.state === 'pending');

  async function done(result: Outcome) {
    setOutcome(result);
    await Promise.all([mutate(), refresh(INBOX_URL), refresh(CHATS_URL)]);
  }

  return (
    <section className="home-section" aria-labelledby="home-requests-heading">
      <div className="home-section-head">
        <h2 id="home-requests-heading">Requests</h2>
        <a href="/account/requests">All requests</a>
      </div>
      <RefreshProblem error={error} />
      {outcome ? (
        <div className={`notice notice-${outcome.tone}`} role={outcome.tone === 'error' ? 'alert' : 'status'}>
          <p>
            {outcome.text} {outcome.chatId ? <a href={`/account/chats/${outcome.chatId}`}>Say hello</a> : null}
          </p>
        </div>
      ) : null}
      {waiting.length === 0 ? (
        <p className="muted">Nobody is waiting for your answer.</p>
      ) : (
        <>
          <ul className="plain-list" aria-label="Requests waiting for your answer">
            {waiting.slice(0, SHOWN).map((r) => (
              <RequestCard key={r.id} request={r} activityNames={activityNames} onDone={done} />
            ))}
          </ul>
          {waiting.length > SHOWN ? (
            <p>
              <a href="/account/requests">{waiting.length - SHOWN} more waiting</a>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

export function HomeChats({ initial }: { initial: ChatLists }) {
  const { data, error } = useSWR<ChatLists>(CHATS_URL, getJson, { fallbackData: initial, refreshInterval: REFRESH_MS });
  const unread = (data ?? initial).chats.filter((c) => c.unread_count > 0);
  return (
    <section className="home-section" aria-labelledby="home-chats-heading">
      <div className="home-section-head">
        <h2 id="home-chats-heading">Unread chats</h2>
        <a href="/account/chats">All chats</a>
      </div>
      <RefreshProblem error={error} />
      {unread.length === 0 ? (
        <p className="muted">You’re all caught up.</p>
      ) : (
        <ul className="chat-list" aria-label="Chats with unread messages">
          {unread.slice(0, SHOWN).map((chat) => (
            <ChatRow key={chat.chatId} chat={chat} />
          ))}
        </ul>
      )}
    </section>
  );
}
