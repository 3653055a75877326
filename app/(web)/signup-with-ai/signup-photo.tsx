import { useRef, useState } from 'react';
import { photoPreview } from '@/lib/web/photo-preview';
import { photoFileProblem, readAsDataUrl } from '@/app/_components/photo-upload';

/**
 * The photo: taken with the camera or chosen from the files (a phone offers both for
 * accept="image/*"), shown before anything is sent, and sent inline with the signup, so it
 * goes through the same photo pipeline as an upload. A public link still works, for a photo
 * already online (or one an assistant's link carries).
 */
export function SignupPhoto({
  photo,
  error,
  onChange,
}: {
  photo: string;
  error?: string;
  onChange: (photo: string) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const isFile = photo.startsWith('data:');
  const preview = isFile ? photoPreview(photo) : null;
  const shown = problem ?? error;

  async function choose(file: File | undefined) {
    setProblem(null);
    if (!file) return;
    const refused = photoFileProblem(file);
    if (refused) {
      setProblem(refused);
      if (input.current) input.current.value = '';
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
    } catch {
      setProblem('Could not read that file. Choose another photo.');
    }
  }

  return (
    <fieldset
      id={isFile ? 'field-photo' : undefined}
      className="field signup-photo"
      aria-describedby={shown ? 'field-photo-error' : undefined}
    >
      <legend>Photo</legend>
      <div className="photo-upload">
        {preview?.kind === 'image' ? (
          <img className="photo-preview" src={preview.src} alt="You, as others will see you" width={96} height={96} />
        ) : (
          <p className="muted">No photo yet.</p>
        )}
        <div className="stack">
          <input
            ref={input}
            id="field-photo-file"
            className="visually-hidden photo-input"
            type="file"
            accept="image/*"
            aria-describedby="field-photo-help"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <label htmlFor="field-photo-file" className="button button-secondary photo-button">
            {isFile ? 'Choose another photo' : 'Take or choose a photo'}
          </label>
          {isFile ? (
            <button
              type="button"
              className="button-secondary"
              onClick={() => {
                onChange('');
                if (input.current) input.current.value = '';
              }}
            >
              Remove photo
            </button>
          ) : null}
        </div>
      </div>
      <p className="help" id="field-photo-help">
        Optional, and you can add it later: without one, nobody sees you in Discover. JPEG, PNG or WebP, up to 5 MB.
      </p>
      {isFile ? null : (
        <details open={photo !== ''}>
          <summary>Or use a link to a photo</summary>
          <div className="field">
            <label htmlFor="field-photo">Photo link</label>
            <input
              id="field-photo"
              name="photo"
              type="url"
              aria-describedby="field-photo-link-help"
              aria-invalid={error ? true : undefined}
              value={photo}
              onChange={(e) => onChange(e.target.value)}
            />
            <p className="help" id="field-photo-link-help">
              A public https link to a photo of you.
            </p>
          </div>
        </details>
      )}
      {shown ? (
        <p className="error" id="field-photo-error" role={problem ? 'alert' : undefined}>
          {shown}
        </p>
      ) : null}
    </fieldset>
  );
}
