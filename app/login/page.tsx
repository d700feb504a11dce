import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { webSessionOrCondition } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { safeNextPath } from '@/lib/auth';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Log in' };

/** What each refusal code of `POST /auth/login` means to the person at the form. */
const MESSAGES: Record<string, string> = {
  unauthorized: 'The email or password is incorrect.',
  rate_limited: 'Too many login attempts for this email. Wait 15 minutes, then try again.',
  invalid_request_body: 'Enter an email and a password.',
  forbidden: 'The login form was posted from another site and was refused. Log in from this page.',
  database_unavailable: 'The database cannot be reached, so nobody can log in right now. Try again once it is back.',
  database_connection_lost: 'The connection to the database was lost while logging in. Try again.',
  storage_full: 'The database storage is full, so a login cannot be recorded. Try again once space is freed.',
  storage_read_only: 'The database is read-only, so a login cannot be recorded. Try again once it is writable.',
};

/** The login page: the only page that needs no session (middleware.ts). */
export default async function LoginPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const next = safeNextPath(param(sp, 'next'));
  // A browser still holding a cookie during an outage gets the form and the condition, not an error page.
  const { session, condition } = await webSessionOrCondition();
  if (session) redirect(next);
  // Met by this page's own read, a lost connection means what an unreachable database means: not now.
  const error = param(sp, 'error') || (condition === 'database_connection_lost' ? 'database_unavailable' : condition);
  const message = error ? (MESSAGES[error] ?? 'The login failed. Try again.') : null;
  return (
    <div className="page page-login">
      <div className="container stack">
        <h1>Log in</h1>
        {message ? (
          <div role="alert" className="alert alert-error">
            {message}
          </div>
        ) : param(sp, 'signed_out') ? (
          <div role="status" className="alert alert-info">
            You are logged out.
          </div>
        ) : null}
        <form method="post" action="/auth/login" className="stack">
          <input type="hidden" name="next" value={next} />
          <div className="field">
            <label htmlFor="email">Email</label>
            <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          <div className="form-footer">
            <button type="submit" className="btn btn-primary">
              Log in
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
