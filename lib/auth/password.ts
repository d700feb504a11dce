/**
 * Password hashing for browser login (SPEC §2 "auth entity": a user logs in with email + password).
 * `node:crypto` scrypt, stored as `scrypt$N$r$p$saltB64$hashB64` (User.passwordHash). Verification
 * compares in constant time and costs the same whether or not the user exists (see `verifyPassword`).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from '../config';

/** scrypt cost parameters for new hashes: N = 2^15, r = 8, p = 1 (about 32 MiB and 50–100 ms per hash). */
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// Defined with the environment's rules, which hold SCHEDULER_DEMO_PASSWORD to them too.
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../config';

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** The memory scrypt needs for (N, r), with headroom (Node's default `maxmem` is 32 MiB). */
const maxmem = (n: number, r: number) => 256 * n * r;

/**
 * Hash `password`: `scrypt$32768$8$1$<salt b64>$<hash b64>`, with a fresh random salt, or with the salt
 * and cost of `saltOf` (another stored hash) when given and well-formed. Accounts that share an email
 * share one salt (`passwordHashForEmail`, account-password.ts), so a login for that email costs one scrypt.
 */
export async function hashPassword(password: string, saltOf?: string | null): Promise<string> {
  const from = saltOf ? parseHash(saltOf) : null;
  const salt = from?.salt ?? randomBytes(SALT_LENGTH);
  const [n, r, p] = from ? [from.n, from.r, from.p] : [N, R, P];
  const key = await scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: maxmem(n, r) });
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  // Bounds keep a tampered row from making one login cost minutes or gigabytes.
  if (!Number.isInteger(n) || n < 2 || n > 2 ** 20 || (n & (n - 1)) !== 0) return null;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { n, r, p, salt, key };
}

/** A fixed hash that matches no password, verified when there is no real one so both cases cost the same. */
const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(SALT_LENGTH, 7).toString('base64')}$${Buffer.alloc(KEY_LENGTH, 0).toString('base64')}`;

/**
 * True when `password` matches `stored`. `stored` null (unknown user, or a user without a password)
 * still runs one scrypt of the default cost and answers false, so the answer time does not tell
 * whether the account exists. A malformed stored hash answers false.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  return (await matchPassword(password, [stored])) === 0;
}

/**
 * Which of `stored` (hashes of accounts sharing one email, in preference order) `password` matches:
 * the index of the first match, or -1. Costs one scrypt per distinct salt and cost among them (one,
 * since accounts of an email share their salt), and one of the default cost when none is usable, so the
 * time does not tell how many accounts the email has, or whether it has any. Nulls (accounts without a
 * password) and malformed hashes match nothing.
 */
export async function matchPassword(password: string, stored: readonly (string | null)[]): Promise<number> {
  const parsed = stored.map((s) => (s ? parseHash(s) : null));
  // Hashes that share a salt and cost share one scrypt.
  const groupOf = parsed.map((h) => (h ? `${h.n}$${h.r}$${h.p}$${h.salt.toString('base64')}` : null));
  const groups = new Map<string, ParsedHash>();
  parsed.forEach((h, i) => h && groups.set(groupOf[i]!, h));
  if (groups.size === 0) groups.set('dummy', parseHash(DUMMY_HASH)!);
  const keys = new Map<string, Buffer>();
  for (const [id, h] of groups) {
    keys.set(id, await scrypt(password.slice(0, MAX_PASSWORD_LENGTH), h.salt, h.key.length, { N: h.n, r: h.r, p: h.p, maxmem: maxmem(h.n, h.r) }));
  }
  let found = -1;
  parsed.forEach((h, i) => {
    if (!h) return;
    const key = keys.get(groupOf[i]!)!;
    // Every candidate is compared (constant time each), whichever matched first.
    const equal = key.length === h.key.length && timingSafeEqual(key, h.key);
    if (equal && found < 0) found = i;
  });
  return password.length <= MAX_PASSWORD_LENGTH ? found : -1;
}

/** A random password for a new account, shown once (24 base64url chars, 144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
