import Link from 'next/link';
import { webSessionOrCondition } from '@/app/lib/server';

/** The header's right side: who is signed in, their account and orgs, and Log out (a same-origin POST). */
export async function UserMenu() {
  const { session } = await webSessionOrCondition();
  if (!session) return null;
  return (
    <nav aria-label="Account" className="user-menu">
      <span className="user-email" title={session.user.email}>
        {session.user.email}
      </span>
      <Link href="/orgs">Organizations</Link>
      <Link href="/account">Account</Link>
      <form method="post" action="/auth/logout">
        <button type="submit">Log out</button>
      </form>
    </nav>
  );
}
