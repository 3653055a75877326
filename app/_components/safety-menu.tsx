'use client';
// Block and Report behind a ⋯ menu (a <details>, so it opens by keyboard and announces
// its state without script), used in a chat's header and on a profile. Blocking asks
// first; a report can also block. Both are the agents' POSTs.
import { useState, type FormEvent, type ReactNode } from 'react';
import { REPORT_REASONS, SOCIAL_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { fieldFailure, sendJson } from './api-client';

const REASON_WORDS: Record<(typeof REPORT_REASONS)[number], string> = {
  spam: 'Spam or scam',
  harassment: 'Harassment',
  inappropriate_content: 'Inappropriate content',
  fake_profile: 'Fake profile',
  underage: 'Under age',
  safety_concern: 'I’m worried about someone’s safety',
  other: 'Something else',
};

export type Ended = { text: string } | null;

export function SafetyMenu({
  name,
  slug,
  chatId = null,
  blockNote,
  onEnded,
  children,
}: {
  name: string;
  slug: string;
  chatId?: string | null;
  /** What blocking does here, said before the person confirms. */
  blockNote: string;
  onEnded: (ended: Ended) => void;
  /** More menu items shown first (e.g. the chat's mute switch). */
  children?: ReactNode;
}) {
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [reason, setReason] = useState<(typeof REPORT_REASONS)[number]>('harassment');
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(true);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function block() {
    setBusy(true);
    const result = await sendJson('POST', paths.block({ slug }));
    setBusy(false);
    if (result.ok)
      onEnded({ text: `You blocked ${name}. They can’t message you or send requests, and they aren’t told.` });
    else setStatus({ tone: 'error', text: result.error.message });
  }

  async function report(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await sendJson<{ blocked: boolean }>('POST', paths.report({ slug }), {
      reason,
      text: details.trim() === '' ? null : details,
      ...(chatId ? { chatId } : {}),
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
    <details className="more-menu">
      <summary>
        <span aria-hidden="true">⋯</span>
        <span className="visually-hidden">More: block or report {name}</span>
      </summary>
      <div className="more-menu-panel stack">
        {children}
        {status ? (
          <div className={`notice notice-${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
            <p>{status.text}</p>
          </div>
        ) : null}
        {confirmBlock ? (
          // biome-ignore lint/a11y/useSemanticElements: a question and two buttons, not form fields to wrap in a fieldset
          <div className="notice notice-warn" role="group" aria-label={`Confirm blocking ${name}`}>
            <p>
              Block {name}? {blockNote} They aren’t told. You can unblock them in Settings.
            </p>
            <div className="actions">
              <button type="button" className="button-danger" disabled={busy} onClick={() => void block()}>
                Yes, block {name}
              </button>
              <button type="button" className="button-secondary" onClick={() => setConfirmBlock(false)}>
                Cancel
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="button-secondary" onClick={() => setConfirmBlock(true)}>
            Block {name}
          </button>
        )}
        <details>
          <summary>Report {name}</summary>
          <form className="stack" onSubmit={(event) => void report(event)}>
            <div className="field">
              <label htmlFor="report-reason">What’s wrong?</label>
              <select
                id="report-reason"
                value={reason}
                onChange={(event) => setReason(event.target.value as typeof reason)}
              >
                {REPORT_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {REASON_WORDS[r]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="report-text">What happened (optional)</label>
              <textarea
                id="report-text"
                value={details}
                maxLength={SOCIAL_LIMITS.reportText}
                rows={3}
                onChange={(event) => setDetails(event.target.value)}
              />
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
      </div>
    </details>
  );
}
