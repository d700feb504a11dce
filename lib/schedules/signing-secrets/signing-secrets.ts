/**
 * A scheduler's webhook signing secrets (SPEC §13.1): `whsec_…`, one current secret per scheduler,
 * created on first need; a rotation adds a new current secret and retires the old one, which keeps
 * signing for 24 h. An admin is shown each secret once (`get_signing_secret` for one never shown,
 * `rotate_signing_secret` for the new one); afterwards only its hint.
 */
import type { Actor } from '../../auth';
import { inTransaction, lockBlob, type Db, type Tx } from '../../db';
import { generateSigningSecret, signingSecretHint } from '../../targets';
import { DomainError } from '../../errors';
import type { SigningSecretInfo } from '../contract';

/** What `get_signing_secret`, `rotate_signing_secret` and `findSigningSecret` take. */
export interface SigningSecretOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** The request's instant (UTC): a new secret's `created_at`, a rotated one's `retired_at`, `shown_at`. */
  now: Date;
}

/** How long a retired secret keeps signing after the rotation that retired it, in ms (24 h, SPEC §13.1). */
export const SIGNING_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

interface SecretRow {
  id: string;
  generation: number;
  secret: string;
  createdAt: Date;
  shownAt: Date | null;
  retiredAt: Date | null;
}

/** The secrets that still sign at `now`, newest first (the current one first). */
async function signingRows(tx: Tx, blobId: string, now: Date): Promise<SecretRow[]> {
  return tx.signingSecret.findMany({
    where: { blobId, OR: [{ retiredAt: null }, { retiredAt: { gt: new Date(now.getTime() - SIGNING_SECRET_OVERLAP_MS) } }] },
    orderBy: { generation: 'desc' },
  });
}

/**
 * Make sure scheduler `blobId` has a current signing secret, creating generation 1 (never shown) when
 * it has none, inside the caller's transaction. Throws `404 not_found` when the blob does not exist.
 */
export async function ensureSigningSecret(tx: Tx, blobId: string, now: Date): Promise<void> {
  // Secrets change one transaction at a time: two first uses cannot both create generation 1.
  if (!(await lockBlob(tx, blobId))) throw new DomainError('not_found', 'revision not found');
  const current = await tx.signingSecret.findFirst({ where: { blobId, retiredAt: null }, select: { id: true } });
  if (!current) await tx.signingSecret.create({ data: { blobId, generation: 1, secret: generateSigningSecret(), createdAt: now } });
}

/**
 * The secrets every webhook of scheduler `blobId` is signed with at `now` (SPEC §13.1): the current
 * one first, then those retired less than 24 h ago. Creates the first secret when there is none
 * (in its own transaction), so no webhook ever goes out unsigned. For the fire path: call it before
 * `deliver`, outside the claim transaction.
 */
export async function signingSecretsForDelivery(db: Db, blobId: string, now: Date): Promise<string[]> {
  let rows = await signingRows(db, blobId, now);
  if (!rows.some((r) => r.retiredAt === null)) {
    rows = await inTransaction(db, async (tx) => {
      await ensureSigningSecret(tx, blobId, now);
      return signingRows(tx, blobId, now);
    });
  }
  return rows.map((r) => r.secret);
}

/** `signingSecretsForDelivery` inside the caller's transaction `tx` (an in-transaction delivery). */
export async function signingSecretsIn(tx: Tx, blobId: string, now: Date): Promise<string[]> {
  await ensureSigningSecret(tx, blobId, now);
  return (await signingRows(tx, blobId, now)).map((r) => r.secret);
}

/** The answer for `rows` (signing rows, newest first), showing the current secret when `show`. */
export function signingSecretInfo(rows: SecretRow[], now: Date, show: boolean): SigningSecretInfo {
  const [current, ...older] = rows;
  return {
    ...(show ? { secret: current.secret } : {}),
    hint: signingSecretHint(current.secret),
    created_at: current.createdAt.toISOString(),
    ...(current.shownAt ? { shown_at: current.shownAt.toISOString() } : {}),
    previous: older
      .filter((r) => r.retiredAt !== null && r.retiredAt.getTime() + SIGNING_SECRET_OVERLAP_MS > now.getTime())
      .map((r) => ({
        hint: signingSecretHint(r.secret),
        created_at: r.createdAt.toISOString(),
        retired_at: r.retiredAt!.toISOString(),
        signs_until: new Date(r.retiredAt!.getTime() + SIGNING_SECRET_OVERLAP_MS).toISOString(),
      })),
  };
}

export { signingRows };
