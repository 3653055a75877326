'use client';
// Buddy requests in and out. The lists come from GET /api/v1/buddy_requests.json (the
// agents' call) and refresh every 15 s; accept, decline and cancel are the same POSTs an
// agent makes, so the rules (only the recipient accepts, moderation of the first
// message, one chat per pair) are the API's.
import { useState, type FormEvent } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { BuddyRequestRecord } from '@/lib/contract/buddies';
import { SOCIAL_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { INBOX_URL } from '@/lib/web/account-nav';
import { getJson, sendJson, fieldFailure } from './api-client';
import { RefreshProblem, TextAreaField } from './fields';
import { PersonHeading } from './avatar';
import { TimeAgo } from './time-ago';

export const REQUESTS_URL = paths.buddyRequests();
const REFRESH_MS = 15_000;
/** Settled requests shown under "Earlier", newest first. */
const HISTORY_SHOWN = 20;

export interface RequestLists {
  sent: BuddyRequestRecord[];
  received: BuddyRequestRecord[];
}

/** Free together with someone, as the Requests page computes it (keyed by user id). */
export interface FreeTogetherWords {
  hours: number;
  summary: string;
}

export type Outcome = { tone: 'ok' | 'error'; text: string; chatId?: string | null };

/** What answering a request did, in the words both the Requests page and the home screen use. */
export function answeredNotice(action: 'accept' | 'decline', name: string, chatId: string | null): Outcome {
  return action === 'accept'
    ? { tone: 'ok', text: `You and ${name} are buddies now.`, chatId }
    : { tone: 'ok', text: `You declined ${name}’s request. They won’t be told.` };
}

const STATE_WORDS: Record<BuddyRequestRecord['state'], string> = {
  pending: 'Waiting',
  accepted: 'Accepted',
  declined: 'Declined',
  cancelled: 'Withdrawn',
};

function RequestSummary({
  request,
  activityNames,
  together,
}: {
  request: BuddyRequestRecord;
  activityNames: Record<string, string>;
  together?: FreeTogetherWords;
}) {
  const { user } = request;
  return (
    <PersonHeading user={user}>
      <p className="muted">
        {user.location ? `${user.location} · ` : ''}
        <TimeAgo value={request.created_at} />
      </p>
      {request.message ? <p className="quote">{request.message}</p> : null}
      {request.activityIds.length > 0 ? (
        <ul className="chips" aria-label="Activities">
          {request.activityIds.map((id) => (
            <li key={id}>{activityNames[id] ?? id}</li>
          ))}
        </ul>
      ) : null}
      {together ? (
        <p className="match-free">
          <span className="match-label">Free together:</span> {together.summary}
          {together.hours > 0 ? ` · ${together.hours} h a week` : ''}
        </p>
      ) : null}
    </PersonHeading>
  );
}

function OutcomeNotice({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) return null;
  return (
    <div className={`notice notice-${outcome.tone}`} role={outcome.tone === 'error' ? 'alert' : 'status'}>
      <p>
        {outcome.text} {outcome.chatId ? <a href={`/account/chats/${outcome.chatId}`}>Open the chat</a> : null}
      </p>
    </div>
  );
}

function ReceivedRequest({
  request,
  activityNames,
  together,
  onDone,
}: {
  request: BuddyRequestRecord;
  activityNames: Record<string, string>;
  together?: FreeTogetherWords;
  onDone: (outcome: Outcome) => Promise<void>;
}) {
  const [firstMessage, setFirstMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = request.user.displayName;
  const fieldId = `first-message-${request.id}`;

  async function answer(action: 'accept' | 'decline', event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    const url = paths[`${action}Request`]({ invitationId: request.id });
    const body = action === 'accept' && firstMessage.trim() !== '' ? { firstMessage } : undefined;
    const result = await sendJson<{ chat?: { chatId: string } }>('POST', url, body);
    setBusy(false);
    if (!result.ok) {
      // Already answered (perhaps by an agent) or gone: say so and refresh the lists.
      if (result.error.status === 404 || result.error.status === 409)
        await onDone({ tone: 'error', text: result.error.message });
      else setError(fieldFailure(result.error, 'firstMessage'));
      return;
    }
    await onDone(answeredNotice(action, name, result.data.chat?.chatId ?? null));
  }

  return (
    <li className="card">
      <RequestSummary request={request} activityNames={activityNames} together={together} />
      <form className="stack" onSubmit={(event) => void answer('accept', event)} aria-label={`Answer ${name}`}>
        <TextAreaField
          id={fieldId}
          label={`First message to ${name} (optional)`}
          value={firstMessage}
          onChange={setFirstMessage}
          maxLength={SOCIAL_LIMITS.firstMessage}
          error={error}
        />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Accept
          </button>
          <button type="button" className="button-secondary" disabled={busy} onClick={() => void answer('decline')}>
            Decline
          </button>
        </div>
      </form>
    </li>
  );
}

function SentRequest({
  request,
  activityNames,
  together,
  onDone,
}: {
  request: BuddyRequestRecord;
  activityNames: Record<string, string>;
  together?: FreeTogetherWords;
  onDone: (outcome: Outcome) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  async function cancel() {
    setBusy(true);
    const result = await sendJson('POST', paths.cancelRequest({ invitationId: request.id }));
    setBusy(false);
    await onDone(
      result.ok
        ? { tone: 'ok', text: `You withdrew your request to ${request.user.displayName}.` }
        : { tone: 'error', text: result.error.message },
    );
  }
  return (
    <li className="card">
      <RequestSummary request={request} activityNames={activityNames} together={together} />
      <div className="actions">
        <span className="tag">Waiting for their answer</span>
        <button
          type="button"
          className="button-secondary"
          disabled={busy}
          onClick={() => void cancel()}
          aria-label={`Withdraw your request to ${request.user.displayName}`}
        >
          Withdraw
        </button>
      </div>
    </li>
  );
}

export function BuddyRequests({
  initial,
  activityNames,
  freeTogether = {},
}: {
  initial: RequestLists;
  activityNames: Record<string, string>;
  /** By user id, for the people in open requests when the page was drawn. */
  freeTogether?: Record<string, FreeTogetherWords>;
}) {
  const { data, error, mutate } = useSWR<RequestLists>(REQUESTS_URL, getJson, {
    fallbackData: initial,
    refreshInterval: REFRESH_MS,
  });
  const [outcome, setOutcome] = useState<Outcome>();
  const { mutate: refresh } = useSWRConfig();
  const lists = data ?? initial;
  const waiting = lists.received.filter((r) => r.state === 'pending');
  const asked = lists.sent.filter((r) => r.state === 'pending');
  const history = [...lists.received, ...lists.sent]
    .filter((r) => r.state !== 'pending')
    .sort((a, b) => ((a.responded_at ?? a.created_at) < (b.responded_at ?? b.created_at) ? 1 : -1))
    .slice(0, HISTORY_SHOWN);

  async function done(result: Outcome) {
    setOutcome(result);
    await Promise.all([mutate(), refresh(INBOX_URL)]);
  }

  return (
    <>
      <RefreshProblem error={error} />
      <OutcomeNotice outcome={outcome} />

      <section aria-labelledby="received-heading">
        <h2 id="received-heading">
          Waiting for your answer <span className="count-badge quiet">{waiting.length}</span>
        </h2>
        {waiting.length === 0 ? (
          <p className="muted">Nobody is waiting for an answer. New requests show up here by themselves.</p>
        ) : (
          <ul className="plain-list" aria-label="Requests waiting for your answer">
            {waiting.map((r) => (
              <ReceivedRequest
                key={r.id}
                request={r}
                activityNames={activityNames}
                together={freeTogether[r.user.id]}
                onDone={done}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="sent-heading">
        <h2 id="sent-heading">
          You asked <span className="count-badge quiet">{asked.length}</span>
        </h2>
        {asked.length === 0 ? (
          <p className="muted">
            No open requests. <a href="/account/discover">Find buddies</a> to ask someone.
          </p>
        ) : (
          <ul className="plain-list" aria-label="Requests you sent">
            {asked.map((r) => (
              <SentRequest
                key={r.id}
                request={r}
                activityNames={activityNames}
                together={freeTogether[r.user.id]}
                onDone={done}
              />
            ))}
          </ul>
        )}
      </section>

      {history.length > 0 ? (
        <section aria-labelledby="history-heading">
          <h2 id="history-heading">Earlier</h2>
          <ul className="plain-list compact" aria-label="Earlier requests">
            {history.map((r) => (
              <li key={r.id} className="history-item">
                <span>
                  {r.direction === 'sent' ? 'You asked ' : ''}
                  <a href={`/u/${encodeURIComponent(r.user.slug)}`}>{r.user.displayName}</a>
                  {r.direction === 'received' ? ' asked you' : ''}
                </span>
                <span className={r.state === 'accepted' ? 'tag tag-ok' : 'tag'}>{STATE_WORDS[r.state]}</span>
                {r.chatId ? <a href={`/account/chats/${r.chatId}`}>Chat</a> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
