'use client';
// The "Add a photo" step: the same chooser, preview and upload as the profile editor
// (POST /api/v1/me/photo.json), then back to the page the person came from.
import { PhotoUpload } from './photo-upload';

export function AddPhotoStep({
  currentUrl,
  name,
  returnTo,
}: {
  currentUrl: string | null;
  name: string;
  /** A same-site path (checked by the page). */
  returnTo: string;
}) {
  return (
    <section className="card stack" aria-label="Your photo">
      <PhotoUpload
        currentUrl={currentUrl}
        name={name}
        saveLabel="Save"
        // A full load, so the page behind re-renders with the photo (Discover then shows people).
        onUploaded={() => window.location.assign(returnTo)}
      />
      <p>
        <a href={returnTo}>Not now</a>
      </p>
    </section>
  );
}
