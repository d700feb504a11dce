import { inTransaction, lockBlob } from '../../db';
import { DomainError } from '../../errors';
import { generateSigningSecret } from '../../targets';
import { requireSchedulerAdmin } from '../access';
import { SIGNING_SECRET_OVERLAP_MS, signingRows, signingSecretInfo, type SigningSecretOptions } from './signing-secrets';
import type { SigningSecretInfo } from '../contract';

/**
 * `rotate_signing_secret` (SPEC §13.1): a new current secret, shown in this answer (and only here);
 * the previous current secret is retired now and keeps signing every webhook until 24 h from now,
 * as do secrets retired less than 24 h ago. Secrets retired longer ago are deleted. On a scheduler
 * without a secret it creates the first.
 * @throws `404 not_found` (scheduler unreadable), `403 forbidden` (not an admin).
 */
export async function rotateSigningSecret(opts: SigningSecretOptions): Promise<SigningSecretInfo> {
  const { db, actor, revision, now } = opts;
  return inTransaction(db, async (tx) => {
    await requireSchedulerAdmin(tx, actor, revision.blobId);
    // Rotations of one scheduler take turns (PostgreSQL FOR UPDATE on the blob row, SQLite BEGIN
    // IMMEDIATE), so each reads the generation the previous one wrote.
    if (!(await lockBlob(tx, revision.blobId))) throw new DomainError('not_found', 'revision not found');
    const current = await tx.signingSecret.findFirst({ where: { blobId: revision.blobId, retiredAt: null }, orderBy: { generation: 'desc' } });
    if (current) await tx.signingSecret.update({ where: { id: current.id }, data: { retiredAt: now } });
    await tx.signingSecret.create({
      data: { blobId: revision.blobId, generation: (current?.generation ?? 0) + 1, secret: generateSigningSecret(), createdAt: now, shownAt: now },
    });
    await tx.signingSecret.deleteMany({ where: { blobId: revision.blobId, retiredAt: { lte: new Date(now.getTime() - SIGNING_SECRET_OVERLAP_MS) } } });
    return signingSecretInfo(await signingRows(tx, revision.blobId, now), now, true);
  });
}
