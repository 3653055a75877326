import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Not found', robots: { index: false } };

export default function NotFound() {
  return (
    <div className="narrow">
      <h1>We couldn’t find that page</h1>
      <p>The address may be mistyped, or the profile or page no longer exists.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}
