import type { Metadata } from 'next';
import Link from 'next/link';
import { currentWebSession, invitationPage } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { formatUtc } from '@/components/format';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Invitation' };

/** What each refusal code of `POST /auth/invitations/accept` means to the invitee. */
const MESSAGES: Record<string, string> = {
  account_exists: 'This email already has an account. Log in as it, then open this link again to accept.',
  invalid_request_body: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`,
  forbidden: 'You are logged in as another account. Log out, then open this link again.',
  rate_limited: 'Too many attempts. Wait a few minutes, then try again.',
};

/**
 * An invitation link (docs/decisions.md 51): open without a session. Shows the org, role and email;
 * a new invitee chooses a password, an existing account logs in and accepts. The same page for every
 * link that does not work (used, withdrawn, expired, made up).
 */
export default async function InvitationPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<SearchParams> }) {
  const { token } = await params;
  const sp = await searchParams;
  const invitation = await invitationPage(token);
  const session = await currentWebSession();
  const error = param(sp, 'error');
  const message = error ? (MESSAGES[error] ?? 'The invitation could not be accepted. Try again.') : null;
  if (!invitation) {
    return (
      <div className="page page-login">
        <div className="container stack">
          <h1>Invitation</h1>
          <div role="alert" className="alert alert-error">
            This invitation link is not valid: it was used, withdrawn or has expired. Ask the org&apos;s admin for a new one.
          </div>
        </div>
      </div>
    );
  }
  const next = `/invite/${token}`;
  return (
    <div className="page page-login">
      <div className="container stack">
        <h1>Join {invitation.org.name}</h1>
        <p>
          <strong>{invitation.email}</strong> is invited to <strong>{invitation.org.name}</strong> with the role <strong>{invitation.role}</strong>.
          The link works once, until {formatUtc(invitation.expiresAt)}.
        </p>
        {message ? (
          <div role="alert" className="alert alert-error">
            {message}
          </div>
        ) : null}
        {session ? (
          session.user.email === invitation.email ? (
            <form method="post" action="/auth/invitations/accept" className="stack" aria-label="Accept the invitation">
              <input type="hidden" name="token" value={token} />
              <p>You are logged in as {session.user.email}.</p>
              <div className="form-footer">
                <button type="submit" className="btn btn-primary">
                  Accept and join {invitation.org.name}
                </button>
              </div>
            </form>
          ) : (
            <div role="alert" className="alert alert-error">
              You are logged in as {session.user.email}, but this invitation is for {invitation.email}. Log out, then open this link
              again.
            </div>
          )
        ) : (
          <>
            <h2 className="subsection-title">New here? Make your account</h2>
            <form method="post" action="/auth/invitations/accept" className="stack" aria-label="Make your account">
              <input type="hidden" name="token" value={token} />
              <div className="field">
                <label htmlFor="invite-name">Your name (optional)</label>
                <input id="invite-name" name="name" type="text" autoComplete="name" maxLength={128} />
              </div>
              <div className="field">
                <label htmlFor="invite-password">Choose a password</label>
                <input id="invite-password" name="password" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
              </div>
              <div className="form-footer">
                <button type="submit" className="btn btn-primary">
                  Make account and join
                </button>
              </div>
            </form>
            <p>
              Already have an account for {invitation.email}? <Link href={`/login?${new URLSearchParams({ next })}`}>Log in</Link>, then accept
              here.
            </p>
          </>
        )}
      </div>
    </div>
  );
}
