import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { config } from '@/lib/config';
import { SITE, SiteChrome } from './_components/site-chrome';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  return {
    metadataBase: new URL(config().publicBaseUrl),
    title: { default: SITE.name, template: `%s · ${SITE.name}` },
    description: SITE.description,
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: SITE.themeColor };

// Nothing here depends on who is visiting, so public pages stay cacheable; the account
// area has its own layout. Every page renders per request so it carries the CSP nonce.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <SiteChrome>{children}</SiteChrome>
      </body>
    </html>
  );
}
