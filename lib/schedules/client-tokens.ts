/**
 * Remembered client tokens (SPEC §14 `ClientToken`; usable for SPEC §15 `client_token`): the first
 * answer to a request, kept under a caller-scoped key until it expires, so that a retry with the same
 * token and the same request gets that answer again and creates nothing.
 */
import { inTransaction, type Db } from '../db';
import { isUniqueViolation } from '../workflows';

/** A remembered answer, or null when the token is unknown or expired. */
export async function findClientToken(db: Db, key: string, now: Date): Promise<{ requestHash: string; response: unknown } | null> {
  const row = await db.clientToken.findUnique({ where: { key } });
  if (!row || row.expiresAt <= now) return null;
  return { requestHash: row.requestHash, response: row.response };
}

/**
 * Remember `response` under `key` for `ttlMs`. A key already remembered (a concurrent twin of the
 * request) keeps its first answer. Expired tokens are swept a batch at a time on the way.
 */
export async function saveClientToken(db: Db, opts: { key: string; requestHash: string; response: object; now: Date; ttlMs: number }): Promise<void> {
  const { key, requestHash, response, now } = opts;
  const expiresAt = new Date(now.getTime() + opts.ttlMs);
  try {
    await inTransaction(db, async (tx) => {
      const expired = await tx.clientToken.findMany({ where: { expiresAt: { lte: now } }, select: { key: true }, take: 100 });
      if (expired.length) await tx.clientToken.deleteMany({ where: { key: { in: expired.map((e) => e.key) } } });
      // An expired row under the same key is replaced; a live one is left as it is.
      await tx.clientToken.deleteMany({ where: { key, expiresAt: { lte: now } } });
      await tx.clientToken.upsert({
        where: { key },
        update: {},
        create: { key, requestHash, response, createdAt: now, expiresAt },
      });
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
}
