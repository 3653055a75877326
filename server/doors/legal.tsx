// GET /privacy and /terms (issue 47): the privacy policy and the terms of use, answered in the
// node:http server as the home page is (server/doors/home.tsx): plain HTML from React with no
// script, because an App Router page would load Next.js's client runtime for text. Same chrome,
// stylesheet and security headers as every page, with this answer's nonce CSP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToStaticMarkup } from 'react-dom/server';
import { PrivacyPage, TermsPage } from '@/app/_components/legal-pages';
import { SITE } from '@/app/_components/site-chrome';
import { StaticDocument } from '@/app/_components/static-document';
import { config } from '@/lib/config';
import { siteStylesheet } from '@/lib/http/inline-stylesheet';
import { targetPath } from '@/lib/http/request-target';
import { type LegalFacts, legalFacts } from '@/lib/legal/facts';
import { LEGAL_PATHS } from '@/lib/web/legal-paths';
import { answerNoncedPage } from './page';

const PAGES = {
  [LEGAL_PATHS.privacy]: { title: 'Privacy policy', Page: PrivacyPage },
  [LEGAL_PATHS.terms]: { title: 'Terms of use', Page: TermsPage },
} as const;

let facts: LegalFacts | undefined;

/** One legal page's HTML, its inline stylesheet tagged with `nonce`. */
export function renderLegalPage(path: keyof typeof PAGES, nonce: string): string {
  facts ??= legalFacts(config());
  const { title, Page } = PAGES[path];
  return `<!DOCTYPE html>\n${renderToStaticMarkup(
    <StaticDocument title={`${title} · ${SITE.name}`} nonce={nonce} css={siteStylesheet()}>
      <Page facts={facts} />
    </StaticDocument>,
  )}`;
}

/** True when it answered (GET or HEAD on /privacy or /terms, any query string). */
export function answerLegalPages(req: IncomingMessage, res: ServerResponse, options: { https: boolean }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = targetPath(req.url ?? '/');
  if (path !== LEGAL_PATHS.privacy && path !== LEGAL_PATHS.terms) return false;
  return answerNoncedPage(req, res, (nonce) => renderLegalPage(path, nonce), options);
}
