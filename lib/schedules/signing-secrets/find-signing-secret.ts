import { requireSchedulerAdmin } from '../access';
import { signingRows, signingSecretInfo, type SigningSecretOptions } from './signing-secrets';
import type { SigningSecretInfo } from '../contract';

/**
 * The scheduler's signing secret as the admin page describes it, without the secret and without
 * creating or showing anything; `null` when the scheduler has none yet (SPEC §13.1).
 * @throws `404 not_found` (scheduler unreadable), `403 forbidden` (not an admin).
 */
export async function findSigningSecret(opts: SigningSecretOptions): Promise<SigningSecretInfo | null> {
  const { db, actor, revision, now } = opts;
  await requireSchedulerAdmin(db, actor, revision.blobId);
  const rows = await signingRows(db, revision.blobId, now);
  return rows.length && rows[0].retiredAt === null ? signingSecretInfo(rows, now, false) : null;
}
