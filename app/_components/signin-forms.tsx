// The two sign-in forms. Plain HTML forms that post to Auth.js (/auth/*) with the CSRF
// token, so they work without JavaScript.

export function PasswordSigninForm({
  csrfToken,
  returnTo,
  email,
}: {
  csrfToken: string;
  returnTo: string;
  email?: string;
}) {
  return (
    <form className="stack" method="post" action="/auth/callback/password">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={returnTo} />
      <div className="field">
        <label htmlFor="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" autoComplete="email" required defaultValue={email} />
      </div>
      <div className="field">
        <label htmlFor="signin-password">Password</label>
        <input id="signin-password" name="password" type="password" autoComplete="current-password" required />
        <p className="help">The one you chose, or the one your agent gave you when it signed you up.</p>
      </div>
      <div className="actions">
        <button type="submit">Sign in</button>
      </div>
    </form>
  );
}

export function EmailLinkForm({
  csrfToken,
  returnTo,
  idPrefix = 'link',
}: {
  csrfToken: string;
  returnTo: string;
  idPrefix?: string;
}) {
  return (
    <form className="stack" method="post" action="/auth/signin/email">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={returnTo} />
      <div className="field">
        <label htmlFor={`${idPrefix}-email`}>Email</label>
        <input id={`${idPrefix}-email`} name="email" type="email" autoComplete="email" required />
        <p className="help">We’ll email you a link that signs you in once, valid for about an hour.</p>
      </div>
      <div className="actions">
        <button type="submit" className="button-secondary">
          Email me a sign-in link
        </button>
      </div>
    </form>
  );
}
