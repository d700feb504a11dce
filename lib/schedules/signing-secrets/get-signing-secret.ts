import { inTransaction } from '../../db';
import { requireSchedulerAdmin } from '../access';
import { ensureSigningSecret, signingRows, signingSecretInfo, type SigningSecretOptions } from './signing-secrets';
import type { SigningSecretInfo } from '../contract';

/**
 * `get_signing_secret` (SPEC §13.1): the scheduler's current signing secret and the retired ones
 * still signing. The secret itself is in the answer only the first time an admin asks after it was
 * created (created here when the scheduler has none yet); every later answer has its hint only —
 * `rotate_signing_secret` makes a new one to show. Showing is a compare-and-set on `shown_at`, so
 * two admins asking at once cannot both see it.
 * @throws `404 not_found` (scheduler unreadable), `403 forbidden` (not an admin).
 */
export async function getSigningSecret(opts: SigningSecretOptions): Promise<SigningSecretInfo> {
  const { db, actor, revision, now } = opts;
  return inTransaction(db, async (tx) => {
    await requireSchedulerAdmin(tx, actor, revision.blobId);
    await ensureSigningSecret(tx, revision.blobId, now);
    const rows = await signingRows(tx, revision.blobId, now);
    const current = rows[0];
    // Shown once: only the transaction that moves shown_at off null shows the secret.
    const shown = current.shownAt === null && (await tx.signingSecret.updateMany({ where: { id: current.id, shownAt: null }, data: { shownAt: now } })).count === 1;
    return signingSecretInfo(shown ? [{ ...current, shownAt: now }, ...rows.slice(1)] : rows, now, shown);
  });
}
