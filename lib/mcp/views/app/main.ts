// The MCP Apps views, one script for all (the page's data-view picks one), built with the
// SDK's App class: it speaks to the host over postMessage, gets the tool's input and
// result, follows the host's theme and reports its size. Every action goes back through
// the host as a tool call (callServerTool), so it carries the person's own connection.
// DOM is built with textContent only: names and notes come from other people.
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';

type Json = Record<string, unknown>;
type Result = { content?: Array<{ type: string; text?: string }>; isError?: boolean; _meta?: Json };

const CONFIRMATION_META_KEY = 'buddy-match/confirmation';
const root = document.getElementById('root') as HTMLElement;
const view = document.body.dataset.view ?? '';
const app = new App({ name: `buddy-match-${view}`, version: '1' }, {}, { autoResize: true });
let toolInput: Json = {};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child != null) node.append(child);
  return node;
}

const words = (id: string) => id.replace(/_/g, ' ');
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** The JSON the tool answered with: the first text block that parses as an object. */
function resultJson(result: Result): Json | null {
  for (const block of result.content ?? []) {
    if (block.type !== 'text' || !block.text) continue;
    try {
      const value = JSON.parse(block.text);
      if (value && typeof value === 'object') return value as Json;
    } catch {}
  }
  return null;
}

function errorText(result: Result): string {
  return result.content?.find((b) => b.type === 'text')?.text?.split('\n')[0] ?? 'Something went wrong';
}

async function call(name: string, args: Json): Promise<Result> {
  try {
    return (await app.callServerTool({ name, arguments: args })) as Result;
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }] };
  }
}

function status(text: string, isError = false): HTMLElement {
  return el('p', {
    className: isError ? 'status error' : 'status',
    textContent: text,
    role: isError ? 'alert' : 'status',
  });
}

function avatar(user: Json): HTMLElement {
  const name = String(user.displayName ?? '');
  if (typeof user.photoURL === 'string' && user.photoURL)
    return el('img', { src: user.photoURL, alt: `Photo of ${firstName(name)}`, width: 64, height: 64 });
  return el('div', { className: 'ph', ariaHidden: 'true', textContent: firstName(name).charAt(0).toUpperCase() });
}

function chips(ids: unknown, label: string): HTMLElement | null {
  if (!Array.isArray(ids) || ids.length === 0) return null;
  const list = el('ul', { className: 'chips' });
  list.setAttribute('aria-label', label);
  for (const id of ids) list.append(el('li', { textContent: words(String(id)) }));
  return list;
}

// --- Send: what will be sent, exactly, with Send and Edit (issue 32 §2) ---

interface Prepared {
  token: string;
  expires_at: string;
  payload: Json;
}

/** Prepares the request (nothing is sent) and shows it for the person to confirm. */
async function prepare(slot: HTMLElement, payload: Json, who: string): Promise<void> {
  slot.replaceChildren(status('Preparing…'));
  const result = await call('send_buddy_request', { ...payload, confirm: 'person' });
  const prepared = result._meta?.[CONFIRMATION_META_KEY] as Prepared | undefined;
  if (result.isError || !prepared) {
    const sent = resultJson(result);
    slot.replaceChildren(result.isError ? status(errorText(result), true) : sentNote(sent, who));
    return;
  }
  showConfirm(slot, prepared, who);
}

function sentNote(answer: Json | null, who: string): HTMLElement {
  const outcome = String((answer?.outcome as string | undefined) ?? 'sent');
  return status(outcome === 'already_pending' ? `You already asked ${who}.` : `Request sent to ${who}.`);
}

function showConfirm(slot: HTMLElement, prepared: Prepared, who: string): void {
  const { payload } = prepared;
  const details = el(
    'dl',
    {},
    el('dt', { textContent: 'To' }),
    el('dd', { textContent: who }),
    el('dt', { textContent: 'Note' }),
    el('dd', { textContent: typeof payload.message === 'string' && payload.message ? payload.message : '(none)' }),
  );
  if (Array.isArray(payload.activityIds) && payload.activityIds.length)
    details.append(
      el('dt', { textContent: 'For' }),
      el('dd', { textContent: payload.activityIds.map((id) => words(String(id))).join(', ') }),
    );
  const send = el('button', { type: 'button', textContent: 'Send' });
  const edit = el('button', { type: 'button', className: 'secondary', textContent: 'Edit' });
  send.addEventListener('click', async () => {
    send.disabled = edit.disabled = true;
    const result = await call('confirm_buddy_request', { ...payload, token: prepared.token });
    slot.replaceChildren(result.isError ? status(errorText(result), true) : sentNote(resultJson(result), who));
  });
  edit.addEventListener('click', () => noteForm(slot, payload, who));
  slot.replaceChildren(
    el('p', { className: 'muted', textContent: 'Nothing is sent until you tap Send.' }),
    details,
    el('div', { className: 'row' }, send, edit),
  );
}

/** The optional note, then Prepare: the person sees the exact request before it goes. */
function noteForm(slot: HTMLElement, payload: Json, who: string): void {
  const note = el('textarea', { maxLength: 500, value: typeof payload.message === 'string' ? payload.message : '' });
  const label = el('label', {}, `Note to ${who} (optional)`, note);
  const next = el('button', { type: 'button', textContent: 'Review request' });
  const cancel = el('button', { type: 'button', className: 'secondary', textContent: 'Cancel' });
  next.addEventListener('click', () => {
    const message = note.value.trim();
    void prepare(slot, { ...payload, message: message || undefined }, who);
  });
  cancel.addEventListener('click', () => slot.replaceChildren());
  slot.replaceChildren(label, el('div', { className: 'row' }, next, cancel));
  note.focus();
}

// --- People nearby (discover) ---

function personCard(item: Json): HTMLElement {
  const user = (item.user ?? {}) as Json;
  const name = firstName(String(user.displayName ?? ''));
  const slot = el('div', { className: 'body' });
  const meta = [`${item.distance_km} km away`, user.location ? String(user.location) : null]
    .filter(Boolean)
    .join(' · ');
  const ask = el('button', { type: 'button', textContent: 'Ask to be buddies' });
  ask.setAttribute('aria-label', `Ask ${name} to be buddies`);
  const pending = item.pending_request;
  const action = el('div', {});
  if (pending === 'sent') action.append(status(`You asked ${name}; waiting for an answer.`));
  else if (pending === 'received') action.append(status(`${name} asked you: see your requests.`));
  else action.append(el('div', { className: 'row' }, ask));
  ask.addEventListener('click', () =>
    noteForm(
      action,
      { slug: user.slug, activityIds: Array.isArray(item.shared_activities) ? item.shared_activities : undefined },
      name,
    ),
  );
  slot.append(
    el('h2', { textContent: name }),
    el('p', { className: 'muted', textContent: meta }),
    chips(item.shared_activities, `Activities you share with ${name}`) ?? '',
    item.overlap_summary ? el('p', { textContent: `Free together: ${item.overlap_summary}` }) : '',
    action,
  );
  return el('article', { className: 'card' }, avatar(user), slot);
}

function renderPeople(answer: Json): void {
  const results = (answer.results as Json[] | undefined) ?? [];
  const list = el('div', { className: 'list' });
  for (const item of results) list.append(personCard(item));
  root.replaceChildren(el('h1', { textContent: 'People nearby' }));
  if (results.length === 0)
    root.append(el('p', { textContent: String(answer.empty_reason ?? 'Nobody matches this search yet.') }));
  root.append(list);
  let cursor = answer.next_cursor as string | null | undefined;
  if (!cursor) return;
  const more = el('button', { type: 'button', className: 'secondary', textContent: 'More' });
  more.addEventListener('click', async () => {
    more.disabled = true;
    const result = await call('discover', { ...toolInput, cursor });
    const page = resultJson(result);
    if (result.isError || !page) {
      more.replaceWith(status(errorText(result), true));
      return;
    }
    for (const item of (page.results as Json[] | undefined) ?? []) list.append(personCard(item));
    cursor = page.next_cursor as string | null;
    if (cursor) more.disabled = false;
    else more.remove();
  });
  root.append(more);
}

// --- Requests (list_buddy_requests) ---

function requestCard(request: Json): HTMLElement {
  const user = (request.user ?? {}) as Json;
  const name = firstName(String(user.displayName ?? ''));
  const slot = el('div', {});
  const body = el(
    'div',
    { className: 'body' },
    el('h2', { textContent: name }),
    request.message ? el('p', { textContent: `“${request.message}”` }) : null,
    chips(request.activityIds, `Activities ${name} named`),
    slot,
  );
  if (request.direction === 'received' && request.state === 'pending') {
    const accept = el('button', { type: 'button', textContent: 'Accept' });
    const decline = el('button', { type: 'button', className: 'secondary', textContent: 'Decline' });
    accept.setAttribute('aria-label', `Accept ${name}`);
    decline.setAttribute('aria-label', `Decline ${name}`);
    accept.addEventListener('click', () => {
      const first = el('textarea', { maxLength: 2000 });
      const send = el('button', { type: 'button', textContent: 'Accept and send' });
      send.addEventListener('click', async () => {
        send.disabled = true;
        const text = first.value.trim();
        const result = await call('accept_buddy_request', {
          invitationId: request.invitationId,
          firstMessage: text || undefined,
        });
        slot.replaceChildren(result.isError ? status(errorText(result), true) : status(`You and ${name} are buddies.`));
      });
      slot.replaceChildren(
        el('label', {}, `First message to ${name} (optional)`, first),
        el('div', { className: 'row' }, send),
      );
      first.focus();
    });
    decline.addEventListener('click', async () => {
      accept.disabled = decline.disabled = true;
      const result = await call('decline_buddy_request', { invitationId: request.invitationId });
      slot.replaceChildren(result.isError ? status(errorText(result), true) : status(`Declined ${name}.`));
    });
    slot.append(el('div', { className: 'row' }, accept, decline));
  } else {
    slot.append(
      el('p', {
        className: 'muted',
        textContent: `${request.direction === 'sent' ? 'Sent' : 'Received'}: ${request.state}`,
      }),
    );
  }
  return el('article', { className: 'card' }, avatar(user), body);
}

function renderRequests(answer: Json): void {
  root.replaceChildren(el('h1', { textContent: 'Buddy requests' }));
  for (const [key, title] of [
    ['received', 'Asked you'],
    ['sent', 'You asked'],
  ] as const) {
    const items = (answer[key] as Json[] | undefined) ?? [];
    const section = el('section', { className: 'list' }, el('h2', { textContent: title }));
    if (items.length === 0) section.append(el('p', { className: 'muted', textContent: 'None.' }));
    for (const request of items) section.append(requestCard(request));
    root.append(section);
  }
}

// --- Send (send_buddy_request's own result) ---

function renderSend(result: Result): void {
  const prepared = result._meta?.[CONFIRMATION_META_KEY] as Prepared | undefined;
  const slug = String(prepared?.payload.slug ?? toolInput.slug ?? '');
  root.replaceChildren(el('h1', { textContent: 'Buddy request' }));
  const slot = el('div', { className: 'list' });
  root.append(slot);
  if (prepared) showConfirm(slot, prepared, slug);
  else slot.append(result.isError ? status(errorText(result), true) : sentNote(resultJson(result), slug));
}

function render(result: Result): void {
  if (view === 'send') {
    renderSend(result);
    return;
  }
  const answer = resultJson(result);
  if (result.isError || !answer) {
    root.replaceChildren(status(errorText(result), true));
    return;
  }
  if (view === 'people') renderPeople(answer);
  else if (view === 'requests') renderRequests(answer);
}

function followHost(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

app.ontoolinput = (params) => {
  toolInput = (params.arguments ?? {}) as Json;
};
app.ontoolresult = (result) => render(result as Result);
app.onhostcontextchanged = (context) => followHost(context);
root.replaceChildren(status('Loading…'));
void app.connect().then(() => followHost(app.getHostContext()));
