import type { Metadata } from 'next';
import { requireSession } from '@/lib/auth/session';
import { PasswordForm } from '@/app/_components/password-form';
import { changePasswordAction } from './actions';

export const metadata: Metadata = { title: 'Password' };

export default async function PasswordPage() {
  await requireSession('/account/password');
  return (
    <div className="narrow">
      <h1>Change your password</h1>
      <p>
        Changing it signs out your other browsers. Agents keep their access unless you tick “Sign out everywhere and
        revoke all assistant tokens”; you can also disconnect them one by one under{' '}
        <a href="/account/agents">Connected assistants</a>.
      </p>
      <section className="card" aria-label="Change password">
        <PasswordForm action={changePasswordAction} />
      </section>
    </div>
  );
}
