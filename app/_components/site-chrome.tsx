import type { ReactNode } from 'react';
import { LEGAL_PATHS } from '@/lib/web/legal-paths';

/** What every page says about the site, in its head and in the manifest. */
export const SITE = {
  name: 'Buddy Match',
  description: 'Find someone to go hiking, climbing or to a gig with — through your AI agent or here.',
  themeColor: '#0b57a4',
} as const;

/** The header, main landmark and footer of every page: the root layout and the static home page. */
export function SiteChrome({ children }: { children: ReactNode }) {
  return (
    <>
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
          Buddy Match — find people to do things with. For agents: <a href="/api/v1/index.json">the API index</a>.{' '}
          <a href={LEGAL_PATHS.privacy}>Privacy</a> · <a href={LEGAL_PATHS.terms}>Terms</a>
        </div>
      </footer>
    </>
  );
}
