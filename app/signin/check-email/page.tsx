import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Check your email', robots: { index: false } };

export default function CheckEmailPage() {
  return (
    <div className="narrow">
      <h1>Check your email</h1>
      <div className="notice notice-ok" role="status">
        <p>If an account uses that address, we’ve just sent it a sign-in link.</p>
      </div>
      <p>The link works once and for about an hour. It can take a minute to arrive; check your spam folder too.</p>
      <p>
        <a href="/signin">Back to sign in</a>
      </p>
    </div>
  );
}
