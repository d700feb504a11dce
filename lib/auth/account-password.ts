/**
 * Passwords of accounts that share an email (docs/decisions.md 160). An email is the login name but
 * not unique: each org's invitation link makes its own account. So that a login costs one scrypt
 * however many accounts hold the email (the time must not tell), every account of an email is hashed
 * with the salt (and cost) of the email's first hashed account.
 */
import type { Tx } from '../db';
import { hashPassword } from './password';

/** The accounts of `email`, oldest first (the order a login prefers them in), at most 50. */
export function accountsOfEmail(db: Tx, email: string) {
  return db.user.findMany({
    where: { email },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 50,
    select: { id: true, email: true, name: true, passwordHash: true },
  });
}

/**
 * The stored hash of `password` for an account of `email`: with the salt of the email's first account
 * that has a password, or a fresh one when none has. Run it before a write transaction (scrypt takes
 * ~100 ms and must not hold SQLite's write lock).
 */
export async function passwordHashForEmail(db: Tx, email: string, password: string): Promise<string> {
  const first = await db.user.findFirst({
    where: { email, passwordHash: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { passwordHash: true },
  });
  return hashPassword(password, first?.passwordHash);
}
