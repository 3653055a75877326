import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'You are offline', robots: { index: false } };

// GET /offline – what the service worker shows for an account page while there is no connection.
export default function OfflinePage() {
  return (
    <div className="narrow stack">
      <h1>You’re offline</h1>
      <p>
        Buddy Match needs a connection to show your chats and requests. Nothing you sent is lost: messages that went
        through are on the server.
      </p>
      <p>
        <a className="button" href="/account">
          Try again
        </a>
      </p>
    </div>
  );
}
