'use client';
// The one main action on someone's profile, for where the two people stand: ask to be
// buddies (with an optional note), withdraw a request sent, answer their request, or
// open the chat. Each is the agents' POST; the button changes in place.
import { useEffect, useState, type FormEvent } from 'react';
import { SOCIAL_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import type { BuddyRequestRecord } from '@/lib/contract/buddies';
import type { ChatRecord } from '@/lib/contract/chats';
import type { Standing } from '@/lib/profiles/viewer';
import { fieldFailure, sendJson } from './api-client';
import { SafetyMenu } from './safety-menu';

const BLOCKED_EVENT = 'buddy-match:blocked';

type Notice = { tone: 'ok' | 'error'; text: string } | null;

export function ProfileActions({
  initial,
  name,
  slug,
  offer = false,
}: {
  initial: Standing;
  name: string;
  slug: string;
  /** Came here to ask (after "Join to connect"): the request form starts open. */
  offer?: boolean;
}) {
  const [standing, setStanding] = useState<Standing>(initial);
  const [asking, setAsking] = useState(offer);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  async function ask(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    const result = await sendJson<{ outcome: string; request: BuddyRequestRecord; chat: ChatRecord | null }>(
      'POST',
      paths.buddyRequest({ slug }),
      { message: note.trim() === '' ? null : note },
    );
    setBusy(false);
    if (!result.ok) {
      setNotice({ tone: 'error', text: fieldFailure(result.error, 'message') });
      return;
    }
    setAsking(false);
    setNote('');
    if (result.data.chat) {
      setStanding({ kind: 'buddies', chatId: result.data.chat.chatId });
      setNotice({ tone: 'ok', text: `${name} had already asked you: you are buddies now.` });
    } else {
      setStanding({ kind: 'request_sent', requestId: result.data.request.id });
      setNotice({ tone: 'ok', text: `Request sent. We’ll tell you when ${name} answers.` });
    }
  }

  async function answer(requestId: string, verb: 'cancel' | 'accept' | 'decline') {
    setBusy(true);
    setNotice(null);
    const result = await sendJson<{ chat?: ChatRecord }>('POST', paths[`${verb}Request`]({ invitationId: requestId }));
    setBusy(false);
    if (!result.ok) {
      setNotice({ tone: 'error', text: result.error.message });
      return;
    }
    if (verb === 'cancel') {
      setStanding({ kind: 'none' });
      setNotice({ tone: 'ok', text: 'Request withdrawn.' });
    } else if (verb === 'accept') {
      setStanding({ kind: 'buddies', chatId: result.data.chat?.chatId ?? null });
      setNotice({ tone: 'ok', text: `You and ${name} are buddies now.` });
    } else {
      setStanding({ kind: 'none' });
      setNotice({ tone: 'ok', text: `You declined ${name}’s request. They aren’t told why.` });
    }
  }

  // Blocking from the ⋯ menu ends every action here.
  useEffect(() => {
    const blocked = (event: Event) => {
      setStanding({ kind: 'blocked' });
      setNotice({
        tone: 'ok',
        text: event instanceof CustomEvent && typeof event.detail === 'string' ? event.detail : 'Blocked.',
      });
    };
    window.addEventListener(BLOCKED_EVENT, blocked);
    return () => window.removeEventListener(BLOCKED_EVENT, blocked);
  }, []);

  let main = null;
  switch (standing.kind) {
    case 'none':
      main = asking ? (
        <form className="stack card" onSubmit={(event) => void ask(event)}>
          <div className="field">
            <label htmlFor="request-note">A few words to {name} (optional)</label>
            <textarea
              id="request-note"
              value={note}
              maxLength={SOCIAL_LIMITS.requestMessage}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
          <div className="actions">
            <button type="submit" disabled={busy}>
              Send request
            </button>
            <button type="button" className="button-secondary" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button-big" onClick={() => setAsking(true)}>
          Ask to be buddies
        </button>
      );
      break;
    case 'request_sent':
      main = (
        <div className="actions">
          <p className="tag tag-ok">Request sent</p>
          <button
            type="button"
            className="button-secondary"
            disabled={busy}
            onClick={() => void answer(standing.requestId, 'cancel')}
          >
            Withdraw request
          </button>
        </div>
      );
      break;
    case 'request_received':
      main = (
        <section className="card stack" aria-labelledby="answer-heading">
          <h2 id="answer-heading">Answer their request</h2>
          {standing.message ? (
            <p className="about">“{standing.message}”</p>
          ) : (
            <p className="muted">{name} would like to be buddies.</p>
          )}
          <div className="actions">
            <button type="button" disabled={busy} onClick={() => void answer(standing.requestId, 'accept')}>
              Accept
            </button>
            <button
              type="button"
              className="button-secondary"
              disabled={busy}
              onClick={() => void answer(standing.requestId, 'decline')}
            >
              Decline
            </button>
          </div>
        </section>
      );
      break;
    case 'buddies':
      main = standing.chatId ? (
        <a className="button button-big" href={`/account/chats/${encodeURIComponent(standing.chatId)}`}>
          Message {name}
        </a>
      ) : null;
      break;
    case 'self':
      main = (
        <a className="button button-big button-secondary" href="/account/profile">
          Edit your profile
        </a>
      );
      break;
    default:
      main = null;
  }

  return (
    <div className="profile-action stack">
      {notice ? (
        <div className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          <p>{notice.text}</p>
        </div>
      ) : null}
      {main}
    </div>
  );
}

/** The ⋯ menu of a profile: block or report (not on one's own profile). What follows shows beside the main action. */
export function ProfileSafetyMenu({ name, slug }: { name: string; slug: string }) {
  const [done, setDone] = useState(false);
  if (done) return null;
  return (
    <SafetyMenu
      name={name}
      slug={slug}
      blockNote="You won’t see each other in Discover, and neither of you can send requests or messages."
      onEnded={(end) => {
        setDone(true);
        window.dispatchEvent(new CustomEvent(BLOCKED_EVENT, { detail: end?.text }));
      }}
    />
  );
}
