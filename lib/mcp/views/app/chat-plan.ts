// The Chat (list_messages, send_message) and Plan (get_plan, list_plans, accept_plan) views
// of issue 32. A first message in a chat and accepting a plan reach another human, so they
// go through the person confirmation: the tool prepares (nothing happens), this view shows
// exactly what will happen with Send/Accept and Edit/Back, and the tap calls the app-only
// confirm_action with the token the result's _meta gave this view only.
type Json = Record<string, unknown>;
type Result = { content?: Array<{ type: string; text?: string }>; isError?: boolean; _meta?: Json };

/** What main.ts lends these views: its DOM helper and its way back to the server. */
export interface Kit {
  root: HTMLElement;
  el: <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    props?: Partial<HTMLElementTagNameMap[K]> & { className?: string },
    ...children: Array<Node | string | null | undefined>
  ) => HTMLElementTagNameMap[K];
  call(name: string, args: Json): Promise<Result>;
  status(text: string, isError?: boolean): HTMLElement;
  resultJson(result: Result): Json | null;
  errorText(result: Result): string;
  openLink(url: string): void;
  toolInput: Json;
}

const CONFIRMATION_META_KEY = 'buddy-match/confirmation';
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

interface Prepared {
  kind: string;
  token: string;
  payload: Json;
  plan?: Json;
}

const preparedOf = (result: Result) => result._meta?.[CONFIRMATION_META_KEY] as Prepared | undefined;
const confirm = (kit: Kit, prepared: Prepared) =>
  kit.call('confirm_action', { ...prepared.payload, kind: prepared.kind, token: prepared.token });

// --- Chat ---

const when = (iso: unknown) =>
  new Date(String(iso)).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });

/** The web app's provenance label: what an assistant wrote says so, and for whom. */
function messageItem(kit: Kit, message: Json, buddy: string): HTMLElement {
  const mine = message.from_me === true;
  const by = message.agent_name ? `Sent by ${message.agent_name} for ${mine ? 'you' : buddy}` : null;
  return kit.el(
    'li',
    { className: mine ? 'msg mine' : 'msg' },
    kit.el('span', { className: 'vh', textContent: `${mine ? 'You' : buddy}: ` }),
    kit.el('p', { textContent: String(message.text ?? '') }),
    kit.el('p', { className: 'muted', textContent: [by, when(message.created_at)].filter(Boolean).join(' · ') }),
  );
}

/** The buddy's first name: list_messages names no one, so the view asks list_chats once. */
async function buddyOf(kit: Kit, chatId: string): Promise<string> {
  const chats = kit.resultJson(await kit.call('list_chats', {}));
  const chat = ((chats?.chats as Json[] | undefined) ?? []).find((c) => c.chatId === chatId);
  const name = (chat?.buddy as Json | undefined)?.displayName;
  return typeof name === 'string' ? firstName(name) : 'your buddy';
}

/** Exactly the message that will go, with Send and Edit; nothing is sent before the tap. */
function confirmMessage(kit: Kit, slot: HTMLElement, prepared: Prepared, buddy: string, sent: (m: Json) => void) {
  const send = kit.el('button', { type: 'button', textContent: 'Send' });
  const edit = kit.el('button', { type: 'button', className: 'secondary', textContent: 'Edit' });
  send.addEventListener('click', async () => {
    send.disabled = edit.disabled = true;
    const result = await confirm(kit, prepared);
    const answer = kit.resultJson(result);
    if (result.isError || !answer?.message) {
      slot.replaceChildren(kit.status(kit.errorText(result), true));
      return;
    }
    sent(answer.message as Json);
  });
  edit.addEventListener('click', () =>
    compose(kit, slot, String(prepared.payload.chatId), buddy, true, sent, prepared),
  );
  slot.replaceChildren(
    kit.el('p', {
      className: 'muted',
      textContent: `Your first message to ${buddy}. Nothing is sent until you tap Send.`,
    }),
    kit.el('blockquote', { textContent: String(prepared.payload.text ?? '') }),
    kit.el('div', { className: 'row' }, send, edit),
  );
}

function compose(
  kit: Kit,
  slot: HTMLElement,
  chatId: string,
  buddy: string,
  first: boolean,
  sent: (m: Json) => void,
  draft?: Prepared,
): void {
  const text = kit.el('textarea', { maxLength: 4000, value: String(draft?.payload.text ?? '') });
  const send = kit.el('button', { type: 'button', textContent: first ? 'Review message' : 'Send' });
  send.addEventListener('click', async () => {
    const words = text.value.trim();
    if (!words) return;
    send.disabled = true;
    const result = await kit.call('send_message', { chatId, text: words, ...(first ? { confirm: 'person' } : {}) });
    const prepared = preparedOf(result);
    const answer = kit.resultJson(result);
    if (prepared) confirmMessage(kit, slot, prepared, buddy, sent);
    else if (result.isError || !answer?.message) {
      send.disabled = false;
      slot.append(kit.status(kit.errorText(result), true));
    } else sent(answer.message as Json);
  });
  slot.replaceChildren(kit.el('label', {}, `Message to ${buddy}`, text), kit.el('div', { className: 'row' }, send));
}

export async function renderChat(kit: Kit, result: Result): Promise<void> {
  const answer = kit.resultJson(result);
  const prepared = preparedOf(result);
  // list_messages answers chatId; send_message the message, which names its chat.
  const sentMessage = answer?.message as Json | undefined;
  const chatId = String(
    prepared?.payload.chatId ?? answer?.chatId ?? sentMessage?.chatId ?? kit.toolInput.chatId ?? '',
  );
  if ((result.isError && !prepared) || !chatId) {
    kit.root.replaceChildren(kit.status(kit.errorText(result), true));
    return;
  }
  const buddy = await buddyOf(kit, chatId);
  const list = kit.el('ol', { className: 'msgs' });
  list.setAttribute('aria-label', `Messages with ${buddy}`);
  const messages = (answer?.messages as Json[] | undefined) ?? (sentMessage ? [sentMessage] : []);
  for (const message of messages) list.append(messageItem(kit, message, buddy));
  const slot = kit.el('div', { className: 'list' });
  kit.root.replaceChildren(kit.el('h1', { textContent: `Chat with ${buddy}` }), list, slot);
  // The whole chat is on the page and none of it is theirs: their next message is their first.
  const first = () => !answer?.older_cursor && !list.querySelector('.mine');
  const sent = (message: Json) => {
    list.append(messageItem(kit, message, buddy));
    compose(kit, slot, chatId, buddy, first(), sent);
    slot.prepend(kit.status('Sent.'));
  };
  if (prepared) confirmMessage(kit, slot, prepared, buddy, sent);
  else compose(kit, slot, chatId, buddy, first(), sent);
}

// --- Plan ---

function planWhen(plan: Json): string {
  const start = new Date(String(plan.starts_at));
  const end = new Date(String(plan.ends_at));
  const day = start.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
  const time = (d: Date) => d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${day}, ${time(start)}–${time(end)}`;
}

function planDetails(kit: Kit, plan: Json): HTMLElement {
  const place = (plan.place ?? {}) as Json;
  const details = kit.el(
    'dl',
    {},
    kit.el('dt', { textContent: 'When' }),
    kit.el('dd', { textContent: planWhen(plan) }),
    kit.el('dt', { textContent: 'Where' }),
    kit.el('dd', { textContent: [place.name, place.address].filter(Boolean).join(', ') }),
  );
  if (plan.note)
    details.append(kit.el('dt', { textContent: 'Note' }), kit.el('dd', { textContent: String(plan.note) }));
  return details;
}

const STATUS_WORDS: Record<string, string> = {
  proposed: 'Proposed',
  confirmed: 'Confirmed',
  declined: 'Declined',
  cancelled: 'Cancelled',
  superseded: 'Replaced by a new time',
  expired: 'Expired',
};

function planCard(kit: Kit, plan: Json, prepared?: Prepared): HTMLElement {
  const buddy = firstName(String((plan.buddy as Json | undefined)?.displayName ?? ''));
  const proposer = plan.proposed_by as Json | undefined;
  const by = proposer?.agent_name ? ` · Sent by ${proposer.agent_name} for ${plan.from_me ? 'you' : buddy}` : '';
  const slot = kit.el('div', { className: 'body' });
  const card = kit.el(
    'article',
    { className: 'plan' },
    kit.el('h2', { textContent: `${plan.activity} with ${buddy}` }),
    kit.el('p', {
      className: 'muted',
      textContent: `${STATUS_WORDS[String(plan.status)] ?? String(plan.status)}${plan.from_me ? ' by you' : ` by ${buddy}`}${by}`,
    }),
    planDetails(kit, plan),
    slot,
  );
  const actions = () => planActions(kit, slot, plan, buddy);
  if (prepared) confirmAccept(kit, slot, prepared, buddy, actions);
  else actions();
  return card;
}

function done(kit: Kit, slot: HTMLElement, result: Result, text: string): void {
  slot.replaceChildren(result.isError ? kit.status(kit.errorText(result), true) : kit.status(text));
}

/** Accepting commits the person to meet someone: the plan, then Accept or Back. */
function confirmAccept(kit: Kit, slot: HTMLElement, prepared: Prepared, buddy: string, back: () => void): void {
  const accept = kit.el('button', { type: 'button', textContent: 'Accept' });
  const cancel = kit.el('button', { type: 'button', className: 'secondary', textContent: 'Back' });
  accept.addEventListener('click', async () => {
    accept.disabled = cancel.disabled = true;
    done(kit, slot, await confirm(kit, prepared), `Confirmed: you meet ${buddy}.`);
  });
  cancel.addEventListener('click', back);
  slot.replaceChildren(
    kit.el('p', { className: 'muted', textContent: `Nothing is accepted until you tap Accept; ${buddy} is told.` }),
    kit.el('div', { className: 'row' }, accept, cancel),
  );
}

/** datetime-local gives the person's wall clock; the plan wants an instant with an offset. */
const instant = (local: string) => new Date(local).toISOString();

function suggestForm(kit: Kit, slot: HTMLElement, plan: Json, buddy: string): void {
  const start = kit.el('input', { type: 'datetime-local', required: true });
  const note = kit.el('textarea', { maxLength: 500 });
  const send = kit.el('button', { type: 'button', textContent: 'Suggest' });
  const cancel = kit.el('button', { type: 'button', className: 'secondary', textContent: 'Back' });
  send.addEventListener('click', async () => {
    if (!start.value) return;
    send.disabled = cancel.disabled = true;
    const place = (plan.place ?? {}) as Json;
    const result = await kit.call('propose_plan', {
      chatId: plan.chatId,
      activity: plan.activity,
      starts_at: instant(start.value),
      place: { name: place.name, address: place.address ?? undefined },
      note: note.value.trim() || undefined,
      replaces: plan.id,
    });
    done(kit, slot, result, `Suggested to ${buddy}.`);
  });
  cancel.addEventListener('click', () => planActions(kit, slot, plan, buddy));
  slot.replaceChildren(
    kit.el('label', {}, 'New start', start),
    kit.el('label', {}, `Note to ${buddy} (optional)`, note),
    kit.el('div', { className: 'row' }, send, cancel),
  );
  start.focus();
}

function planActions(kit: Kit, slot: HTMLElement, plan: Json, buddy: string): void {
  const row = kit.el('div', { className: 'row' });
  const button = (text: string, secondary: boolean, onClick: () => void) => {
    const b = kit.el('button', { type: 'button', textContent: text, className: secondary ? 'secondary' : '' });
    b.addEventListener('click', onClick);
    row.append(b);
    return b;
  };
  const open = plan.status === 'proposed' || plan.status === 'confirmed';
  if (plan.status === 'proposed' && !plan.from_me) {
    const accept = button('Accept', false, async () => {
      accept.disabled = true;
      const result = await kit.call('accept_plan', { planId: plan.id, confirm: 'person' });
      const prepared = preparedOf(result);
      if (prepared) confirmAccept(kit, slot, prepared, buddy, () => planActions(kit, slot, plan, buddy));
      else done(kit, slot, result, `Confirmed: you meet ${buddy}.`);
    });
    button('Suggest another time', true, () => suggestForm(kit, slot, plan, buddy));
    button('Decline', true, async () => {
      done(kit, slot, await kit.call('decline_plan', { planId: plan.id }), 'Declined.');
    });
  }
  const profile = (plan.buddy as Json | undefined)?.profile_url;
  if (open && typeof profile === 'string')
    button('Add to calendar', true, () =>
      kit.openLink(`${new URL(profile).origin}/api/v1/plans/${encodeURIComponent(String(plan.id))}.ics`),
    );
  slot.replaceChildren(row);
}

export function renderPlan(kit: Kit, result: Result): void {
  const prepared = preparedOf(result);
  const answer: Json | null = prepared ? { ...prepared } : kit.resultJson(result);
  const plans = (answer?.plans as Json[] | undefined) ?? (answer?.plan ? [answer.plan as Json] : []);
  if ((result.isError && !prepared) || !answer) {
    kit.root.replaceChildren(kit.status(kit.errorText(result), true));
    return;
  }
  kit.root.replaceChildren(kit.el('h1', { textContent: plans.length > 1 ? 'Plans' : 'Plan' }));
  if (plans.length === 0) kit.root.append(kit.el('p', { className: 'muted', textContent: 'No plans here.' }));
  for (const plan of plans) kit.root.append(planCard(kit, plan, prepared));
}
