'use client';
// Choose a photo, see it before sending, then upload it through the JSON API
// (POST /api/v1/me/photo.json, the same call agents make). The file input is visually
// hidden behind a label styled as a big button: on a phone it offers the camera too.
import { useEffect, useRef, useState } from 'react';
import { paths } from '@/lib/contract/paths';

const TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;

/** Why a chosen file cannot be the photo (the API's own limits, said before sending), or null. */
export function photoFileProblem(file: File): string | null {
  if (!TYPES.includes(file.type)) return 'Choose a JPEG, PNG or WebP image.';
  if (file.size > MAX_BYTES) return 'That image is larger than 5 MB. Choose a smaller one.';
  return null;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}

export function PhotoUpload({
  currentUrl,
  name,
  onUploaded,
  saveLabel = 'Upload this photo',
}: {
  currentUrl: string | null;
  name: string;
  onUploaded: () => void;
  saveLabel?: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  function choose(selected: File | undefined) {
    setMessage(null);
    if (!selected) return;
    const problem = photoFileProblem(selected);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setFile(selected);
    setPreview(URL.createObjectURL(selected));
  }

  async function upload() {
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const photo = await readAsDataUrl(file);
      const res = await fetch(paths.photo(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ photo, mimeType: file.type }),
      });
      if (res.ok) {
        setMessage({ tone: 'ok', text: 'Photo uploaded. It may take a moment to pass the automatic check.' });
        setFile(null);
        setPreview(null);
        if (input.current) input.current.value = '';
        onUploaded();
      } else if (res.status === 404) {
        setMessage({ tone: 'error', text: 'Photo upload is not available on this server yet.' });
      } else {
        const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
        setMessage({ tone: 'error', text: body.error?.message ?? `Upload failed (${res.status}).` });
      }
    } catch {
      setMessage({ tone: 'error', text: 'Could not upload the photo. Check your connection and try again.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <div className="photo-upload">
        {preview ? (
          // biome-ignore lint/a11y/noRedundantAlt: "photo" names what the picture is (the profile photo), not the element
          <img className="photo-preview" src={preview} alt="Preview of the photo you chose" width={96} height={96} />
        ) : currentUrl ? (
          // biome-ignore lint/a11y/noRedundantAlt: "photo" names what the picture is (the profile photo), not the element
          <img className="photo-preview" src={currentUrl} alt={`Current photo of ${name}`} width={96} height={96} />
        ) : (
          <p className="muted">No photo yet.</p>
        )}
        <div className="field">
          <input
            ref={input}
            id="photo-file"
            className="visually-hidden photo-input"
            type="file"
            accept="image/*"
            aria-describedby="photo-help"
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <label htmlFor="photo-file" className="button photo-button">
            Take or choose a photo
          </label>
          <p className="help" id="photo-help">
            JPEG, PNG or WebP, up to 5 MB. You’ll see it here before it is uploaded.
          </p>
        </div>
      </div>
      {file ? (
        <div className="actions">
          <button type="button" onClick={() => void upload()} disabled={busy}>
            {busy ? 'Uploading…' : saveLabel}
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              setFile(null);
              setPreview(null);
              if (input.current) input.current.value = '';
            }}
          >
            Cancel
          </button>
        </div>
      ) : null}
      {message ? (
        <div className={`notice notice-${message.tone}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          <p>{message.text}</p>
        </div>
      ) : null}
    </div>
  );
}
