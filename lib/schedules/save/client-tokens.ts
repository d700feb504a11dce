/**
 * Remembered client tokens: the first answer to a request, kept under a caller-scoped key until it
 * expires, so that a retry with the same token and the same request gets that answer again and creates
 * nothing. One implementation for the EventBridge API's `ClientToken` (SPEC §14, 10 minutes) and the
 * product API's and web form's `client_token` on `create_schedule` (SPEC §15, 24 h).
 */
import { createHash } from 'node:crypto';
import type { Tx } from '../../db';
import { canonicalJson } from './canonical-json';

/** SHA-256 of a request's canonical parameters (keys sorted, undefined left out), without the token. */
export function requestHash(params: unknown): string {
  return createHash('sha256').update(canonicalJson(params)).digest('hex');
}

/** A remembered answer, or null when the token is unknown or expired. Reads inside a transaction too. */
export async function findClientToken(db: Tx, key: string, now: Date): Promise<{ requestHash: string; response: unknown } | null> {
  const row = await db.clientToken.findUnique({ where: { key } });
  if (!row || row.expiresAt <= now) return null;
  return { requestHash: row.requestHash, response: row.response };
}

export interface RememberClientTokenOptions {
  key: string;
  requestHash: string;
  response: object;
  now: Date;
  ttlMs: number;
}

/**
 * Remember `response` under `key` for `ttlMs`, inside the caller's transaction (the one that made the
 * answer: a create and its token commit together or not at all). Expired tokens are swept a batch at
 * a time on the way; an expired row under the same key is replaced.
 * Exactly once (per token): a live row under `key` (a concurrent twin committed first) is a unique
 * violation, which rolls the caller's transaction back; the caller then answers the twin's result.
 */
export async function rememberClientToken(tx: Tx, opts: RememberClientTokenOptions): Promise<void> {
  const { key, requestHash, response, now } = opts;
  const expired = await tx.clientToken.findMany({ where: { expiresAt: { lte: now } }, select: { key: true }, take: 100 });
  if (expired.length) await tx.clientToken.deleteMany({ where: { key: { in: expired.map((e) => e.key) } } });
  await tx.clientToken.deleteMany({ where: { key, expiresAt: { lte: now } } });
  await tx.clientToken.create({ data: { key, requestHash, response, createdAt: now, expiresAt: new Date(now.getTime() + opts.ttlMs) } });
}
