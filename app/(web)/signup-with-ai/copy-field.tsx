import { useState } from 'react';

export function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const input = document.getElementById(id) as HTMLInputElement | null;
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button-secondary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <span className="small muted" role="status">
        {copied ? 'Copied.' : ''}
      </span>
    </div>
  );
}
