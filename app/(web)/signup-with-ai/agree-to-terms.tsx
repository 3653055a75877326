import { LEGAL_PATHS } from '@/lib/web/legal-paths';

/** What creating an account agrees to, beside both signup buttons (app directories ask for it). */
export function AgreeToTerms() {
  return (
    <>
      By creating an account you agree to the <a href={LEGAL_PATHS.terms}>terms of use</a>; the{' '}
      <a href={LEGAL_PATHS.privacy}>privacy policy</a> says what we keep and who sees it.
    </>
  );
}
