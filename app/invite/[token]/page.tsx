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
  already_member: 'This email is already a member of the org. Log in as it, then open this link again to accept.',
  invalid_request_body: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`,
  forbidden: 'You are logged in as another account. Log out, then open this link again.',
  rate_limited: 'Too many attempts. Wait a few minutes, then try again.',
};

/**
 * An invitation link (docs/decisions.md 51, 160): open without a session. Shows the org, the role and
 * the blob grants it carries, and the email. Someone with an account logs in and accepts; someone new
 * chooses a password. The page is the same whether or not the email has an account anywhere (a new
 * account is made either way, and is this org's). The same page for every link that does not work
 * (used, withdrawn, expired, made up).
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
        <h1>{invitation.role ? `Join ${invitation.org.name}` : `Access to ${invitation.org.name}`}</h1>
        <p>
          {invitation.role ? (
            <>
              <strong>{invitation.email}</strong> is invited to <strong>{invitation.org.name}</strong> with the role <strong>{invitation.role}</strong>.
            </>
          ) : (
            <>
              <strong>{invitation.org.name}</strong> gives <strong>{invitation.email}</strong> access to some of its blobs.
            </>
          )}{' '}
          The link works once, until {formatUtc(invitation.expiresAt)}.
        </p>
        {invitation.grants.length > 0 ? (
          <ul aria-label="Blob access this link gives">
            {invitation.grants.map((g) => (
              <li key={`${g.blob}:${g.role}`}>
                <strong>{g.role}</strong> on {g.blob}
              </li>
            ))}
          </ul>
        ) : null}
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
                  {invitation.role ? `Accept and join ${invitation.org.name}` : 'Accept'}
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
            <h2 className="subsection-title">Have an account?</h2>
            <p>
              <Link href={`/login?${new URLSearchParams({ next })}`}>Log in as {invitation.email}</Link>, then accept here. Your account keeps
              everything it has and gains what this invitation gives.
            </p>
            <h2 className="subsection-title">New here? Make your account</h2>
            <p className="small muted">A new account is a separate one, even if you already have an account with this email elsewhere.</p>
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
                  {invitation.role ? 'Make account and join' : 'Make account and accept'}
                </button>
              </div>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
