'use client';
// One chat, live. New messages arrive by polling GET .../messages.json?since=… every
// 3 s while the tab is visible (SWR pauses when it is hidden), never by reloading the
// page. `since` is the newest message's created_at_ms minus 1 ms: messages can share a
// millisecond, so the overlap re-reads that millisecond and merging by id drops the
// repeats, and nothing is ever skipped. mark_read=1 moves the read marker as the person
// sees messages. Sending, blocking and reporting are the agents' POSTs.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { ChatRecord, MessageRecord } from '@/lib/contract/social';
import { REPORT_REASONS, SOCIAL_LIMITS } from '@/lib/contract/limits';
import { INBOX_URL } from '@/lib/web/account-nav';
import { mergeMessages } from '@/lib/web/messages';
import { ApiCallError, failureText, getJson, sendJson, fieldFailure } from './api-client';
import { Avatar } from './avatar';
import { TimeAgo } from './time-ago';

const POLL_MS = 3_000;
const PAGE = 200;

interface MessagesPage {
  messages: MessageRecord[];
  has_more: boolean;
}

const REASON_WORDS: Record<(typeof REPORT_REASONS)[number], string> = {
  spam: 'Spam or scam',
  harassment: 'Harassment',
  inappropriate_content: 'Inappropriate content',
  fake_profile: 'Fake profile',
  underage: 'Under age',
  safety_concern: 'I’m worried about someone’s safety',
  other: 'Something else',
};

function pollUrl(chatId: string, messages: readonly MessageRecord[]): string {
  const last = messages[messages.length - 1];
  const since = last ? last.created_at_ms - 1 : 0;
  return `/api/v1/chats/${chatId}/messages.json?since=${since}&mark_read=1&limit=${PAGE}`;
}

type Ended = { text: string } | null;

function SafetyTools({ chat, onEnded }: { chat: ChatRecord; onEnded: (ended: Ended) => void }) {
  const name = chat.buddy.displayName;
  const slug = encodeURIComponent(chat.buddy.slug);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [reason, setReason] = useState<(typeof REPORT_REASONS)[number]>('harassment');
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(true);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function block() {
    setBusy(true);
    const result = await sendJson('POST', `/api/v1/users/${slug}/block.json`);
    setBusy(false);
    if (result.ok) onEnded({ text: `You blocked ${name}. They can’t message you or send requests, and they aren’t told.` });
    else setStatus({ tone: 'error', text: result.error.message });
  }

  async function report(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await sendJson<{ blocked: boolean }>('POST', `/api/v1/users/${slug}/report.json`, {
      reason,
      text: details.trim() === '' ? null : details,
      chatId: chat.chatId,
      block: alsoBlock,
    });
    setBusy(false);
    if (!result.ok) {
      setStatus({ tone: 'error', text: fieldFailure(result.error, 'text') });
      return;
    }
    const thanks = 'Thank you. Your report reached our moderators.';
    if (result.data.blocked) onEnded({ text: `${thanks} You also blocked ${name}.` });
    else setStatus({ tone: 'ok', text: thanks });
  }

  return (
    <section className="card safety" aria-labelledby="safety-heading">
      <h2 id="safety-heading">Safety</h2>
      {status ? (
        <div className={`notice notice-${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
          <p>{status.text}</p>
        </div>
      ) : null}
      {confirmBlock ? (
        <div className="notice notice-warn" role="group" aria-label={`Confirm blocking ${name}`}>
          <p>
            Block {name}? They won’t be able to message you or ask you again, and this chat will be hidden. They aren’t told. You can unblock later
            through your agent.
          </p>
          <div className="actions">
            <button type="button" className="button-danger" disabled={busy} onClick={() => void block()}>
              Yes, block {name}
            </button>
            <button type="button" className="button-secondary" onClick={() => setConfirmBlock(false)}>
              Keep chatting
            </button>
          </div>
        </div>
      ) : (
        <p>
          <button type="button" className="button-danger" onClick={() => setConfirmBlock(true)}>
            Block {name}
          </button>
        </p>
      )}
      <details>
        <summary>Report {name}</summary>
        <form className="stack" onSubmit={(event) => void report(event)}>
          <div className="field">
            <label htmlFor="report-reason">What’s wrong?</label>
            <select id="report-reason" value={reason} onChange={(event) => setReason(event.target.value as typeof reason)}>
              {REPORT_REASONS.map((r) => (
                <option key={r} value={r}>
                  {REASON_WORDS[r]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="report-text">What happened (optional)</label>
            <textarea id="report-text" value={details} maxLength={SOCIAL_LIMITS.reportText} rows={3} onChange={(event) => setDetails(event.target.value)} />
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={alsoBlock} onChange={(event) => setAlsoBlock(event.target.checked)} />
            Also block {name}
          </label>
          <p>
            <button type="submit" className="button-danger" disabled={busy}>
              Send report
            </button>
          </p>
        </form>
      </details>
    </section>
  );
}

export function ChatThread({ chat, initialMessages }: { chat: ChatRecord; initialMessages: MessageRecord[] }) {
  const [messages, setMessages] = useState<readonly MessageRecord[]>(initialMessages);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [ended, setEnded] = useState<Ended>(null);
  const log = useRef<HTMLDivElement>(null);
  const name = chat.buddy.displayName;
  const { mutate: refresh } = useSWRConfig();

  // The key moves on as messages arrive, so a full page (has_more) is followed at once.
  const { error } = useSWR<MessagesPage>(ended ? null : pollUrl(chat.chatId, messages), getJson, {
    refreshInterval: POLL_MS,
    revalidateOnMount: true,
    dedupingInterval: 0,
    onSuccess: (page) => {
      setMessages((known) => mergeMessages(known, page.messages));
      // Their messages were just marked read: the menu's unread badge should follow.
      if (page.messages.some((m) => !m.from_me)) void refresh(INBOX_URL);
    },
    onError: (failure) => {
      // A 404 means the chat is gone for this person (blocked by them, or hidden).
      if (failure instanceof ApiCallError && failure.failure.status === 404) setEnded({ text: `This chat with ${name} is no longer available.` });
    },
  });

  // Keep the newest message in view when one arrives, unless the reader scrolled up.
  const count = messages.length;
  useEffect(() => {
    const box = log.current;
    if (!box) return;
    const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 160;
    if (nearBottom || count <= initialMessages.length) box.scrollTop = box.scrollHeight;
  }, [count, initialMessages.length]);

  async function send(event?: { preventDefault(): void }) {
    event?.preventDefault();
    if (draft.trim() === '' || sending) return;
    setSending(true);
    setSendError(null);
    const result = await sendJson<{ message: MessageRecord }>('POST', `/api/v1/chats/${chat.chatId}/messages.json`, { text: draft });
    setSending(false);
    if (result.ok) {
      setMessages((known) => mergeMessages(known, [result.data.message]));
      setDraft('');
      if (log.current) log.current.scrollTop = log.current.scrollHeight;
    } else if (result.error.code === 'chat_unavailable' || result.error.status === 404) {
      setEnded({ text: result.error.message });
    } else {
      setSendError(fieldFailure(result.error, 'text'));
    }
  }

  // Enter sends (Shift+Enter for a new line), as in other chat apps.
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void send(event);
  }

  return (
    <>
      <header className="chat-head">
        <Avatar name={name} photoURL={chat.buddy.photoURL} size="small" />
        <div>
          <h1>{name}</h1>
          <p className="muted">
            {chat.buddy.location ? `${chat.buddy.location} · ` : ''}
            <a href={`/u/${encodeURIComponent(chat.buddy.slug)}`}>Profile</a> · <a href="/account/chats">All chats</a>
          </p>
        </div>
      </header>

      {error && !ended ? (
        <div className="notice notice-warn" role="status">
          <p>{failureText(error)}</p>
        </div>
      ) : null}

      <div className="messages" ref={log} role="log" aria-label={`Messages with ${name}`} tabIndex={0}>
        {messages.length === 0 ? <p className="muted empty">No messages yet. Say hello!</p> : null}
        <ol>
          {messages.map((m) => (
            <li key={m.id} className={m.from_me ? 'message mine' : 'message theirs'}>
              <span className="visually-hidden">{m.from_me ? 'You' : name}: </span>
              <p>{m.text}</p>
              <span className="message-time">
                <TimeAgo value={m.created_at} style="clock" />
              </span>
            </li>
          ))}
        </ol>
      </div>

      {ended ? (
        <div className="notice notice-ok" role="status">
          <p>
            {ended.text} <a href="/account/chats">Back to your chats</a>
          </p>
        </div>
      ) : (
        <>
          <form className="composer" onSubmit={(event) => void send(event)}>
            <div className="field">
              <label htmlFor="message-text">Message to {name}</label>
              <textarea
                id="message-text"
                value={draft}
                rows={2}
                maxLength={SOCIAL_LIMITS.messageText}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={onKeyDown}
                aria-invalid={sendError ? true : undefined}
                aria-describedby={sendError ? 'message-error' : 'message-help'}
              />
              {sendError ? (
                <p className="error" id="message-error" role="alert">
                  {sendError}
                </p>
              ) : (
                <p className="help" id="message-help">
                  Enter sends; Shift+Enter starts a new line.
                </p>
              )}
            </div>
            <button type="submit" disabled={sending || draft.trim() === ''}>
              Send
            </button>
          </form>
          <SafetyTools chat={chat} onEnded={setEnded} />
        </>
      )}
    </>
  );
}
