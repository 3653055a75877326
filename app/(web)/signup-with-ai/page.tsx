import type { Metadata } from 'next';
import { readQuery } from '@/lib/signup-link';
import { activityNames } from '@/lib/web/activity-names';
import { safeReturnPath } from '@/lib/http/return-path';
import { SignupWithAi } from './signup-with-ai';

export const metadata: Metadata = {
  title: 'Create your Buddy Match account',
  description: 'Check the details your assistant prepared and create your Buddy Match account with one button.',
  robots: { index: false },
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /signup-with-ai?email=…&name=… – the browser fallback for agents that cannot POST
export default async function SignupWithAiPage({ searchParams }: { searchParams: SearchParams }) {
  const search = await searchParams;
  const { draft, unused } = readQuery(search);
  // From an assistant's consent screen: after signing up, the browser goes back there.
  const continueTo = search.callbackUrl ? safeReturnPath(search.callbackUrl, '') || undefined : undefined;
  return (
    <div className="narrow">
      <SignupWithAi
        title="Create your Buddy Match account"
        initialDraft={draft}
        unusedParams={unused}
        continueTo={continueTo}
        activityNames={activityNames()}
      />
      <noscript>
        <div className="notice notice-error">
          <p>
            This page needs JavaScript to create your account. Turn it on, or ask your assistant to sign you up
            directly.
          </p>
        </div>
      </noscript>
    </div>
  );
}
