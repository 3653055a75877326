import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { config } from '@/lib/config';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  return {
    metadataBase: new URL(config().publicBaseUrl),
    title: { default: 'Buddy Match', template: '%s · Buddy Match' },
    description: 'Find someone to go hiking, climbing or to a gig with — through your AI agent or here.',
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#0b57a4' };

// Nothing here depends on who is visiting, so public pages stay cacheable; the account
// area has its own layout. Every page renders per request so it carries the CSP nonce.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="container">
            <a className="brand" href="/">
              Buddy Match
            </a>
            <nav className="site-nav" aria-label="Site">
              <a href="/account">Your account</a>
            </nav>
          </div>
        </header>
        <main id="main" className="container" tabIndex={-1}>
          {children}
        </main>
        <footer className="site-footer">
          <div className="container">
            Buddy Match — find people to do things with. For agents: <a href="/api/v1/index.json">the API index</a>.
          </div>
        </footer>
      </body>
    </html>
  );
}
