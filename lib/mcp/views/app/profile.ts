// The Profile view (ui://bm/profile), for get_public_profile and get_my_profile: photo,
// first name, activities and free time. On one's own profile, activities and free time are
// edited in place and saved with update_my_profile, through the host like every action.
import { avatar, chips, el, errorText, firstName, type Json, type Result, resultJson, status } from './dom';

type Call = (name: string, args: Json) => Promise<Result>;

const activityNames = (profile: Json): string[] =>
  Array.isArray(profile.activities_detail)
    ? (profile.activities_detail as Json[]).map((activity) => String(activity.name))
    : ((profile.activities as string[] | undefined) ?? []);

/** What the server read differently from what was typed, in the words it answered with. */
function warningLines(warnings: Json | undefined): string[] {
  if (!warnings) return [];
  const lines: string[] = [];
  const unmatched = warnings.activities_unmatched as string[] | undefined;
  if (unmatched?.length) lines.push(`Not recognised: ${unmatched.join(', ')}.`);
  const unparsed = warnings.availability_unparsed as string[] | undefined;
  if (unparsed?.length) lines.push(`Not understood: ${unparsed.join('; ')}.`);
  for (const line of (warnings.normalized as string[] | undefined) ?? []) lines.push(line);
  return lines;
}

/** A section with a heading, its content, and (own profile) an Edit button that swaps in `form`. */
function section(
  title: string,
  content: HTMLElement,
  edit?: { label: string; form: (slot: HTMLElement, done: () => void) => void },
): HTMLElement {
  const id = `h-${title.toLowerCase().replace(/\W+/g, '-')}`;
  const slot = el('div', { className: 'body' });
  const show = () => {
    slot.replaceChildren(content);
    if (!edit) return;
    const button = el('button', { type: 'button', className: 'secondary', textContent: 'Edit' });
    button.setAttribute('aria-label', edit.label);
    button.addEventListener('click', () => edit.form(slot, show));
    slot.append(el('div', { className: 'row' }, button));
  };
  show();
  const node = el('section', { className: 'body' }, el('h2', { id, textContent: title }), slot);
  node.setAttribute('aria-labelledby', id);
  return node;
}

/** A labelled field with Save and Cancel; Save sends `args(value)` to update_my_profile. */
function editForm(
  slot: HTMLElement,
  field: HTMLInputElement | HTMLTextAreaElement,
  label: string,
  args: (value: string) => Json,
  call: Call,
  render: (profile: Json, notes: string[]) => void,
  cancel: () => void,
): void {
  const save = el('button', { type: 'button', textContent: 'Save' });
  const back = el('button', { type: 'button', className: 'secondary', textContent: 'Cancel' });
  const message = el('div', {});
  save.addEventListener('click', async () => {
    save.disabled = back.disabled = true;
    message.replaceChildren(status('Saving…'));
    const result = await call('update_my_profile', args(field.value));
    const answer = resultJson(result);
    if (result.isError || !answer?.profile) {
      save.disabled = back.disabled = false;
      message.replaceChildren(status(errorText(result), true));
      return;
    }
    render(answer.profile as Json, ['Saved.', ...warningLines(answer.warnings as Json | undefined)]);
  });
  back.addEventListener('click', cancel);
  slot.replaceChildren(el('label', {}, label, field), el('div', { className: 'row' }, save, back), message);
  field.focus();
}

export function renderProfile(root: HTMLElement, answer: Json, call: Call): void {
  const render = (profile: Json, notes: string[] = []): void => {
    // get_my_profile answers with the private fields (email among them); nobody else's profile has them.
    const own = typeof profile.email === 'string';
    const name = firstName(String(profile.displayName ?? ''));
    const activities = activityNames(profile);
    const summary = typeof profile.schedule_summary === 'string' ? profile.schedule_summary : null;

    const activityList =
      chips(activities, own ? 'Your activities' : `${name}’s activities`) ??
      el('p', { className: 'muted', textContent: 'No activities yet.' });
    const freeTime = el('p', {
      textContent:
        summary || (profile.view === 'public' ? 'Shown to signed-in members only.' : 'No free time given yet.'),
    });

    const editActivities = (slot: HTMLElement, done: () => void) => {
      const input = el('input', { type: 'text', value: activities.join(', '), autocomplete: 'off' });
      editForm(
        slot,
        input,
        'Activities, separated by commas',
        (value) => ({
          activities: value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        }),
        call,
        render,
        done,
      );
    };
    const editFreeTime = (slot: HTMLElement, done: () => void) => {
      const text = typeof profile.availability_text === 'string' ? profile.availability_text : (summary ?? '');
      const input = el('textarea', { maxLength: 500, value: text });
      editForm(
        slot,
        input,
        'When you are free, in your own words',
        (value) => ({ availability_text: value.trim() || null }),
        call,
        render,
        done,
      );
    };

    const head = el(
      'div',
      { className: 'card profile' },
      avatar(profile),
      el(
        'div',
        { className: 'body' },
        el('h1', { textContent: own ? `${name} (you)` : name }),
        profile.location ? el('p', { className: 'muted', textContent: String(profile.location) }) : null,
      ),
    );
    root.replaceChildren(
      head,
      notes.length ? el('div', { role: 'status' }, ...notes.map((note) => el('p', { textContent: note }))) : '',
      section('Activities', activityList, own ? { label: 'Edit activities', form: editActivities } : undefined),
      section('Free time', freeTime, own ? { label: 'Edit free time', form: editFreeTime } : undefined),
    );
  };
  const profile = answer.profile as Json | undefined;
  if (!profile) {
    root.replaceChildren(status('No profile in this answer.', true));
    return;
  }
  render(profile);
}
