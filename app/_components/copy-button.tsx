'use client';

// "Copy" beside a prompt, address or command: one press instead of selecting by hand on a phone.
import { useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard access (an old browser, or permission refused): the text stays selectable.
      setState('failed');
    }
  }
  return (
    <span className="copy-button">
      <button type="button" className="button-secondary" onClick={() => void copy()}>
        {label}
      </button>{' '}
      <span className="small muted" role="status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Could not copy: select the text and copy it.' : ''}
      </span>
    </span>
  );
}
