/**
 * The actor of a browser request. Until browser login lands (accounts issue), the web app acts as
 * the seeded operator account: a single-operator install, recorded in docs/decisions.md.
 */
import { getDb } from '../db';
import { DomainError } from '../errors';
import type { Actor } from './actor';

/** Email of the operator account the seed creates. */
export const DEMO_USER_EMAIL = 'operator@acme-corp.example';

/** The browser's actor. Throws `401 unauthorized` when the operator account does not exist (not seeded). */
export async function getWebActor(): Promise<Actor> {
  const user = await getDb().user.findUnique({ where: { email: DEMO_USER_EMAIL }, select: { id: true } });
  if (!user) throw new DomainError('unauthorized', 'no operator account: run `npm run db:seed`');
  return { type: 'user', id: user.id, roleCap: null };
}
