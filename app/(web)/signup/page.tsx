import type { Metadata } from 'next';
import { draftFromQuery } from '@/lib/signup-link';
import { activityNames } from '@/lib/web/activity-names';
import { safeReturnPath } from '@/lib/web/return-path';
import { SignupWithAi } from '../signup-with-ai/signup-with-ai';

export const metadata: Metadata = {
  title: 'Sign up',
  description:
    'Create your Buddy Match account: your name, where you are, what you like doing and when you are free, in your own words.',
};

// GET /signup – the web signup for people without an assistant: the same form, rules and
// warnings as /signup-with-ai, starting empty; its POST (/api/v1/web/signup.json) makes no assistant key.
export default async function SignupPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // From an assistant's consent screen: after signing up, the sign-in link goes back there.
  const callbackUrl = (await searchParams).callbackUrl;
  const continueTo = callbackUrl ? safeReturnPath(callbackUrl, '') || undefined : undefined;
  return (
    <div className="narrow">
      <SignupWithAi
        title="Sign up"
        intro={
          <p className="muted">
            Write in your own words: activities like &quot;hiking, board games&quot; and free time like &quot;weekday
            evenings after 6&quot;. We show you how we understood them.
          </p>
        }
        ownSignup
        initialDraft={draftFromQuery({})}
        continueTo={continueTo}
        activityNames={activityNames()}
      />
      <noscript>
        <div className="notice notice-error">
          <p>This form needs JavaScript. Turn it on, or ask your assistant to sign you up.</p>
        </div>
      </noscript>
    </div>
  );
}
