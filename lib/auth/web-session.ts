/**
 * Browser sessions (SPEC §2: a user acting through a browser login). The cookie carries a random
 * token; the database keeps only its SHA-256 (WebSession.tokenHash), so a copy of the database
 * cannot be replayed as a login. Sessions expire `WEB_SESSION_TTL_MS` after login.
 */
import { randomBytes } from 'node:crypto';
import { inTransaction, type Db, type Tx } from '../db';
import type { Actor } from './actor';
import { hashSecret } from './keys';
import { WEB_SESSION_TTL_MS } from './session-cookie';

/** Email of the operator account the seed creates (its password: SCHEDULER_DEMO_PASSWORD or printed once). */
export const DEMO_USER_EMAIL = 'operator@acme-corp.example';

/** The signed-in user of a browser session. */
export interface WebUser {
  id: string;
  email: string;
  name: string;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Open a session for `userId` and return its token (for the cookie, never stored) and expiry.
 * Also deletes the user's expired sessions, so the table does not grow without bound. Runs in `db`
 * (call it inside a transaction: it writes).
 */
export async function createWebSession(db: Tx, opts: { userId: string; now: Date }): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(opts.now.getTime() + WEB_SESSION_TTL_MS);
  await db.webSession.deleteMany({ where: { userId: opts.userId, expiresAt: { lte: opts.now } } });
  await db.webSession.create({ data: { tokenHash: hashSecret(token), userId: opts.userId, createdAt: opts.now, expiresAt } });
  return { token, expiresAt };
}

/**
 * The user and actor of session token `token`, or null when the token is malformed, unknown or
 * expired. A browser actor has no role cap: its standing is the user's memberships and grants.
 */
export async function findWebSession(db: Tx, token: string | null | undefined, now: Date): Promise<{ user: WebUser; actor: Actor } | null> {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const row = await db.webSession.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { expiresAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return { user: row.user, actor: { type: 'user', id: row.user.id, roleCap: null } };
}

/** Log out: delete the session of `token` (nothing happens for an unknown token). */
export async function endWebSession(db: Db, token: string | null | undefined): Promise<void> {
  if (!token || !TOKEN_SHAPE.test(token)) return;
  const tokenHash = hashSecret(token);
  await inTransaction(db, (tx) => tx.webSession.deleteMany({ where: { tokenHash } }));
}
