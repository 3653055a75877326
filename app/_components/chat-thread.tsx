'use client';
// One chat, full screen and live (issue 31 §3). The thread fills the viewport without the
// app's bar: the header (back link, photo, name linking to the profile, a ⋯ menu with
// mute, block and report) on top, the message box at the bottom, and between them the
// messages scroll on their own. It opens at the newest message and stays there while
// the reader is at the bottom (a send, a new message, the box growing); scrolling up
// near the top loads the page before with the API's older_cursor, keeping in place
// what the reader sees. New messages arrive by polling GET
// .../messages.json?since=… every 3 s while the tab is visible (SWR pauses when it is
// hidden), never by reloading the page. `since` is the newest message's created_at_ms
// minus 1 ms: messages can share a millisecond, so the overlap re-reads that
// millisecond and merging by id drops the repeats, and nothing is ever skipped.
// mark_read=1 moves the read marker as the person sees messages; each page also
// carries the buddy's marker, which turns "Sent" into "Seen".
// A meetup's group chat (issue 45) is the same thread with `group`: the meetup in the
// header (back to its page), each message under its sender's first name, and none of
// what belongs to two buddies (their profile, the safety menu, plans, "Seen").
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import dynamic from 'next/dynamic';
import useSWR, { useSWRConfig } from 'swr';
import type { PlanRecord } from '@/lib/contract/plans';
import type { ChatRecord, MessageRecord } from '@/lib/contract/chats';
import { SOCIAL_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { INBOX_URL } from '@/lib/web/account-nav';
import { mergeMessages } from '@/lib/web/messages';
import { clockTime, dayKey, dayLabel } from '@/lib/web/time';
import { ApiCallError, failureText, getJson, sendJson, fieldFailure } from './api-client';
import { Avatar } from './avatar';
import type { GroupChat } from './meetup-views';
import { keepForOffline } from './offline-copy';
import type { PlanZones } from './plan-card';
import { SafetyMenu, type Ended } from './safety-menu';

// Plans load with the chat only when it has some, and the composer when it is opened: most
// chat views show neither, so their code stays out of the thread's JavaScript (js-budget.spec).
const PlanCard = dynamic(() => import('./plan-card').then((m) => m.PlanCard));
const PlanForm = dynamic(() => import('./plan-card').then((m) => m.PlanForm), { ssr: false });

const POLL_MS = 3_000;
const PLAN_POLL_MS = 5_000;
/** The chat's plans that may still change: they are read again when the upcoming list no longer holds them. */
const PLAN_OPEN = new Set<PlanRecord['status']>(['proposed', 'confirmed']);
const PAGE = 200;
const OLDER_PAGE = 50;
/** Within this many pixels of an end counts as at it: the bottom to follow new messages, the top to load older ones. */
const NEAR_BOTTOM_PX = 80;
const NEAR_TOP_PX = 400;

interface MessagesPage {
  messages: MessageRecord[];
  has_more: boolean;
  older_cursor: string | null;
  buddy_last_read_message_id: string | null;
}

function pollUrl(chatId: string, messages: readonly MessageRecord[]): string {
  const last = messages[messages.length - 1];
  const since = last ? last.created_at_ms - 1 : 0;
  return `${paths.messages({ chatId })}?since=${since}&mark_read=1&limit=${PAGE}`;
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

/** Touch screens (a coarse pointer) get Enter for a new line; the Send button sends. */
function useCoarsePointer(): boolean {
  const [coarse, setCoarse] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(pointer: coarse)');
    setCoarse(query.matches);
    const change = () => setCoarse(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return coarse;
}

/** The reader's "now", known only in the browser (the server cannot know the time zone). */
function useNow(): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const utcClock = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

function SendIcon() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="24" height="24">
      <path fill="currentColor" d="M3.4 20.4 21 12 3.4 3.6 3.4 10.2 15 12 3.4 13.8z" />
    </svg>
  );
}

export function ChatThread({
  chat,
  group,
  initialMessages,
  initialBuddyRead,
  initialOlder = null,
  menuExtra,
  initialPlans = [],
  zones = { reader: null, buddy: null },
  myName = '',
  person = '',
}: {
  chat: ChatRecord;
  /** A meetup's group chat (build `chat` with groupChatRecord). */
  group?: GroupChat;
  initialMessages: MessageRecord[];
  initialBuddyRead: string | null;
  /** The first page's older_cursor: where scrolling up continues (null: the chat starts here). */
  initialOlder?: string | null;
  menuExtra?: ReactNode;
  /** The chat's plans: cards placed by time among the messages (they are not messages). */
  initialPlans?: PlanRecord[];
  zones?: PlanZones;
  myName?: string;
  /** The signed-in person's id: the offline copy of this thread is theirs alone (offline-copy.ts). */
  person?: string;
}) {
  const [plans, setPlans] = useState<readonly PlanRecord[]>(initialPlans);
  const [proposing, setProposing] = useState(false);
  const [messages, setMessages] = useState<readonly MessageRecord[]>(initialMessages);
  const [buddyRead, setBuddyRead] = useState<string | null>(initialBuddyRead);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [ended, setEnded] = useState<Ended>(null);
  const [older, setOlder] = useState<string | null>(initialOlder);
  const [olderState, setOlderState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const list = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  /** The reader is at the newest message: what arrives or grows keeps them there. */
  const atBottom = useRef(true);
  /** scrollHeight before older messages were prepended, to keep the reader's place. */
  const heightBeforeOlder = useRef<number | null>(null);
  const name = chat.buddy.displayName;
  const coarse = useCoarsePointer();
  const now = useNow();
  const { mutate: refresh } = useSWRConfig();

  useEffect(() => {
    if (person && !group) keepForOffline(person, { kind: 'thread', chatId: chat.chatId, buddy: name, messages });
  }, [person, group, chat.chatId, name, messages]);

  // The key moves on as messages arrive, so a full page (has_more) is followed at once.
  const { error } = useSWR<MessagesPage>(ended ? null : pollUrl(chat.chatId, messages), getJson, {
    refreshInterval: POLL_MS,
    revalidateOnMount: true,
    dedupingInterval: 0,
    onSuccess: (page) => {
      setMessages((known) => mergeMessages(known, page.messages));
      setBuddyRead(page.buddy_last_read_message_id);
      // Their messages were just marked read: the menu's unread badge should follow.
      if (page.messages.some((m) => !m.from_me)) void refresh(INBOX_URL);
    },
    onError: (failure) => {
      // A 404 means the chat is gone for this person (blocked by them, or hidden). A poll
      // that left before this person blocked answers 404 after it: the first reason stays.
      if (failure instanceof ApiCallError && failure.failure.status === 404)
        setEnded(
          (known) =>
            known ?? {
              text: group
                ? 'You are no longer in this meetup’s chat.'
                : `This chat with ${name} is no longer available.`,
            },
        );
    },
  });

  // Plans change by the other person's hand too: the upcoming list brings new and open
  // ones; a known open plan that left it (declined, cancelled, replaced) is read on its own.
  function mergePlans(incoming: readonly PlanRecord[]) {
    setPlans((known) => {
      const byId = new Map(known.map((p) => [p.id, p]));
      for (const plan of incoming) if (plan.chatId === chat.chatId) byId.set(plan.id, plan);
      return [...byId.values()];
    });
  }
  useSWR<{ plans: PlanRecord[] }>(ended || group ? null : `${paths.plans()}?view=upcoming&limit=50`, getJson, {
    refreshInterval: PLAN_POLL_MS,
    dedupingInterval: 0,
    onSuccess: (page) => {
      mergePlans(page.plans);
      const listed = new Set(page.plans.map((p) => p.id));
      const gone = plans.filter((p) => PLAN_OPEN.has(p.status) && !listed.has(p.id));
      void Promise.all(
        gone.map((p) =>
          getJson<{ plan: PlanRecord }>(paths.plan({ planId: p.id })).then(
            (one) => one.plan,
            () => null,
          ),
        ),
      ).then((read) => mergePlans(read.filter((p): p is PlanRecord => p !== null)));
    },
  });

  const toBottom = useCallback(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
  }, []);

  // Older messages went in above: move down by what they added, so the reader's place stays put
  // (done here rather than by the browser's scroll anchoring, which Safari lacks).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when messages change, reading the DOM
  useLayoutEffect(() => {
    const el = list.current;
    const before = heightBeforeOlder.current;
    if (!el || before === null) return;
    heightBeforeOlder.current = null;
    el.scrollTop += el.scrollHeight - before;
  }, [messages]);

  // Open at the newest message, and stay there while at the bottom whenever the thread's
  // content or its window changes size: a message arrives or is sent, the box grows or
  // shrinks, date headings appear, the phone's keyboard opens.
  useLayoutEffect(() => {
    toBottom();
    const observer = new ResizeObserver(() => {
      if (atBottom.current) toBottom();
    });
    for (const el of [list.current, content.current]) if (el) observer.observe(el);
    return () => observer.disconnect();
  }, [toBottom]);

  // A ref, not state: scroll events come faster than renders, and one page is fetched at a time.
  const loadingOlder = useRef(false);
  const loadOlder = useCallback(async () => {
    if (older === null || loadingOlder.current) return;
    loadingOlder.current = true;
    setOlderState('loading');
    try {
      const page = await getJson<MessagesPage>(
        `${paths.messages({ chatId: chat.chatId })}?cursor=${encodeURIComponent(older)}&limit=${OLDER_PAGE}`,
      );
      if (page.messages.length > 0) heightBeforeOlder.current = list.current?.scrollHeight ?? null;
      setMessages((known) => mergeMessages(known, page.messages));
      setOlder(page.older_cursor);
      setOlderState('idle');
    } catch {
      setOlderState('failed');
    } finally {
      loadingOlder.current = false;
    }
  }, [chat.chatId, older]);

  // Only the reader's own move up leaves the bottom. A scroll event can arrive after the
  // content grew or the list shrank (the plan bar appearing), when the distance to the
  // bottom is large although nobody scrolled: that must not stop the thread following.
  const lastScrollTop = useRef(0);
  function onScroll() {
    const el = list.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) atBottom.current = true;
    else if (el.scrollTop < lastScrollTop.current) atBottom.current = false;
    lastScrollTop.current = el.scrollTop;
    if (el.scrollTop < NEAR_TOP_PX && olderState === 'idle') void loadOlder();
  }

  // A first page too short to scroll cannot be scrolled up: it fetches the next one itself.
  useEffect(() => {
    const el = list.current;
    if (el && older !== null && olderState === 'idle' && el.scrollHeight <= el.clientHeight) void loadOlder();
  }, [older, olderState, loadOlder]);

  // The box grows with its text; CSS caps it at about six lines, after which it scrolls.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text changes, measuring the DOM
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [draft]);

  async function send(event?: { preventDefault(): void }) {
    event?.preventDefault();
    if (draft.trim() === '' || sending) return;
    setSending(true);
    setSendError(null);
    const result = await sendJson<{ message: MessageRecord }>('POST', paths.messages({ chatId: chat.chatId }), {
      text: draft,
    });
    setSending(false);
    if (result.ok) {
      // Whatever was being read, what was just sent is shown.
      atBottom.current = true;
      setMessages((known) => mergeMessages(known, [result.data.message]));
      setDraft('');
      toBottom();
    } else if (result.error.code === 'chat_unavailable' || result.error.status === 404) {
      setEnded((known) => known ?? { text: result.error.message });
    } else {
      setSendError(fieldFailure(result.error, 'text'));
    }
  }

  // On a desktop Enter sends (Shift+Enter for a new line), as in other chat apps; on a
  // touch screen Enter is a new line, and the Send button sends.
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (coarse) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void send(event);
  }

  const lastMine = [...messages].reverse().find((m) => m.from_me);
  const seen = lastMine !== undefined && buddyRead !== null && Number(buddyRead) >= Number(lastMine.id);

  // Messages grouped by the reader's calendar day, each day headed by its date (known
  // only once in the browser: the first render is one group without a heading).
  const days: { key: string; label: string | null; items: ReactNode[] }[] = [];
  const timeline = [
    ...messages.map((m) => ({ at: m.created_at, message: m, plan: null })),
    ...plans.map((p) => ({ at: p.created_at, message: null, plan: p })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  for (const { at, message: m, plan } of timeline) {
    const created = new Date(at);
    if (plan) {
      const key = now ? dayKey(created) : 'all';
      if (days.at(-1)?.key !== key) days.push({ key, label: now ? dayLabel(created, now) : null, items: [] });
      days.at(-1)!.items.push(
        <li key={`plan-${plan.id}`} className="plan-item">
          <PlanCard plan={plan} zones={zones} myName={myName} onChange={(p) => mergePlans([p])} />
        </li>,
      );
      continue;
    }
    if (!m) continue;
    const key = now ? dayKey(created) : 'all';
    if (days.at(-1)?.key !== key) days.push({ key, label: now ? dayLabel(created, now) : null, items: [] });
    // In a group the sender is named (someone who has left is no longer among the members).
    const sender = group ? (group.names[m.sender_id] ?? 'Someone who left') : name;
    const by = m.agent_name ? `Sent by ${m.agent_name} for ${m.from_me ? 'you' : firstName(sender)}` : null;
    days.at(-1)!.items.push(
      <li key={m.id} className={m.from_me ? 'message mine' : 'message theirs'}>
        <span className={group && !m.from_me ? 'message-sender' : 'visually-hidden'}>
          {m.from_me ? 'You' : sender}
          {group && !m.from_me ? null : ': '}
        </span>
        <p>{m.text}</p>
        <span className="message-meta">
          {by ? <span className="message-by">{by} · </span> : null}
          <time dateTime={m.created_at}>{now ? clockTime(created) : `${utcClock.format(created)} UTC`}</time>
          {m === lastMine && !group ? <span className="message-state"> · {seen ? 'Seen' : 'Sent'}</span> : null}
        </span>
      </li>,
    );
  }

  const profileHref = `/u/${encodeURIComponent(chat.buddy.slug)}`;
  return (
    <div className="chat">
      <header className="chat-head">
        <a href={group ? group.backHref : '/account/chats'} className="chat-back">
          <span aria-hidden="true">‹</span>
          <span className="visually-hidden">{group ? 'The meetup' : 'All chats'}</span>
        </a>
        <Avatar name={name} photoURL={chat.buddy.photoURL} size="small" />
        <div className="chat-who">
          <h1>{group ? name : <a href={profileHref}>{name}</a>}</h1>
          {chat.buddy.location ? <p className="muted small">{chat.buddy.location}</p> : null}
        </div>
        {ended || group ? null : (
          <SafetyMenu
            name={name}
            slug={chat.buddy.slug}
            chatId={chat.chatId}
            blockNote="They won’t be able to message you or ask you again, and this chat will be hidden."
            onEnded={setEnded}
          >
            {menuExtra}
          </SafetyMenu>
        )}
      </header>

      {error && !ended ? (
        <div className="notice notice-warn" role="status">
          <p>{failureText(error)}</p>
        </div>
      ) : null}

      <div
        className="messages"
        role="log"
        aria-label={`Messages with ${name}`}
        ref={list}
        onScroll={onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard (axe scrollable-region-focusable)
        tabIndex={0}
      >
        <div className="messages-content" ref={content}>
          {older !== null ? (
            <p className="messages-older">
              {olderState === 'loading' ? (
                <span role="status">Loading older messages…</span>
              ) : (
                <button type="button" className="button-secondary" onClick={() => void loadOlder()}>
                  {olderState === 'failed' ? 'Couldn’t load older messages. Try again' : 'Show older messages'}
                </button>
              )}
            </p>
          ) : messages.length > 0 ? (
            <p className="messages-older muted small">
              {group ? 'The start of the group chat' : `The start of your chat with ${name}`}
            </p>
          ) : null}
          {messages.length === 0 ? <p className="muted empty">No messages yet. Say hello!</p> : null}
          {days.map((day) => (
            <div key={day.key} className="day-group">
              {day.label ? <h2 className="day-separator">{day.label}</h2> : null}
              <ol>{day.items}</ol>
            </div>
          ))}
        </div>
      </div>

      {ended || group ? null : (
        <div className="plan-propose">
          <button
            type="button"
            className="button-secondary"
            aria-expanded={proposing}
            onClick={() => setProposing((shown) => !shown)}
          >
            Propose a plan
          </button>
          {proposing ? (
            <PlanForm
              chatId={chat.chatId}
              zone={zones.reader}
              onDone={(plan) => {
                mergePlans([plan]);
                setProposing(false);
              }}
            />
          ) : null}
        </div>
      )}

      {ended ? (
        <div className="notice notice-ok chat-ended" role="status">
          <p>
            {ended.text}{' '}
            {group ? <a href={group.backHref}>Back to the meetup</a> : <a href="/account/chats">Back to your chats</a>}
          </p>
        </div>
      ) : (
        <form className="composer" onSubmit={(event) => void send(event)}>
          <label htmlFor="message-text" className="visually-hidden">
            Message to {name}
          </label>
          <textarea
            ref={box}
            id="message-text"
            value={draft}
            rows={1}
            placeholder={group ? 'Message the group' : `Message ${firstName(name)}`}
            enterKeyHint={coarse ? 'enter' : 'send'}
            maxLength={SOCIAL_LIMITS.messageText}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            aria-invalid={sendError ? true : undefined}
            aria-describedby={sendError ? 'message-error' : 'message-help'}
          />
          <button type="submit" className="send-button" disabled={sending || draft.trim() === ''} aria-label="Send">
            <SendIcon />
          </button>
          {sendError ? (
            <p className="error composer-note" id="message-error" role="alert">
              {sendError}
            </p>
          ) : (
            <p className="visually-hidden" id="message-help">
              {coarse
                ? 'Enter starts a new line; the Send button sends.'
                : 'Enter sends; Shift+Enter starts a new line.'}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
