import type { Metadata } from 'next';
import { getDb } from '@/db';
import { findUserBySlugOrId } from '@/lib/profiles/profile';
import { firstName } from '@/lib/profiles/records';
import { draftFromQuery } from '@/lib/signup-link';
import { activityNames } from '@/lib/web/activity-names';
import { safeReturnPath } from '@/lib/http/return-path';
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
  const search = await searchParams;
  // "Join to connect" on a profile: connect names the person (a slug, never a path), so
  // after signing up the page goes on to their profile with the request offered.
  const wanted =
    typeof search.connect === 'string' ? await findUserBySlugOrId(getDb(), search.connect.slice(0, 80), null) : null;
  const connect = wanted ? { name: firstName(wanted.display_name), slug: wanted.slug } : null;
  // From an assistant's consent screen: after signing up, the sign-in link goes back there.
  const callbackUrl = search.callbackUrl;
  const continueTo = connect
    ? `/u/${encodeURIComponent(connect.slug)}?connect=1`
    : callbackUrl
      ? safeReturnPath(callbackUrl, '') || undefined
      : undefined;
  return (
    <div className="narrow">
      <SignupWithAi
        title="Sign up"
        intro={
          <p className="muted">
            {connect ? `Create your account, then ask ${connect.name} to be buddies. ` : null}
            Write in your own words: activities like &quot;hiking, board games&quot; and free time like &quot;weekday
            evenings after 6&quot;. We show you how we understood them.
          </p>
        }
        ownSignup
        initialDraft={draftFromQuery({})}
        continueTo={continueTo}
        connectName={connect?.name}
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
