import type { ReactNode } from 'react';
import { SITE, SiteChrome } from './site-chrome';

/**
 * A whole page as plain HTML, for pages that need no JavaScript at all (the home page):
 * the same head, stylesheet and chrome as the root layout, without Next.js's client
 * runtime, which every App Router page loads (about 130 KB of script).
 */
export function StaticDocument({
  title,
  nonce,
  css,
  alternate,
  robots,
  children,
}: {
  title: string;
  nonce: string;
  css: string;
  /** A version for agents, linked before the stylesheet (which is most of the page's bytes). */
  alternate?: { href: string; type: string };
  /** e.g. "noindex, nofollow" for a page whose URL is a secret. */
  robots?: string;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={SITE.themeColor} />
        <title>{title}</title>
        {alternate && <link rel="alternate" type={alternate.type} href={alternate.href} />}
        {robots ? <meta name="robots" content={robots} /> : <meta name="description" content={SITE.description} />}
        <link rel="icon" href="/favicon.ico" sizes="32x32" type="image/x-icon" />
        <link rel="icon" href="/icon.svg" sizes="any" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-icon.png" sizes="180x180" type="image/png" />
        <link rel="manifest" href="/manifest.webmanifest" />
        {/* Our own stylesheet inline: no second request before the first paint. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, read from disk at build, never user input */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />
      </head>
      <body>
        <SiteChrome>{children}</SiteChrome>
      </body>
    </html>
  );
}
