/**
 * What this web process knows of its database's storage: the last storage fault (disk full,
 * read-only: `conditionError` in lib/errors) one of its writes met, until a write is seen to work
 * again. Kept here, at the HTTP edge, so that `/api/health` can report the condition (and probe for its
 * end) without writing on every call; the API's `errorResponse` and the server actions' answers note
 * each fault they answer with 503.
 */
import { conditionError, toError, type ConditionCode, type DomainError, type StorageFaultCode } from '../errors';
import { logger } from '../log';

let lastFault: { code: StorageFaultCode; at: Date } | null = null;

/** Remember that a write failed with `code` at `at`. */
export function noteStorageFault(code: StorageFaultCode, at: Date = new Date()): void {
  lastFault = { code, at };
}

/** The storage fault last noted and not yet cleared, or null. */
export function currentStorageFault(): { code: StorageFaultCode; at: Date } | null {
  return lastFault;
}

/** Forget the noted fault (a probe write worked). */
export function clearStorageFault(): void {
  lastFault = null;
}

/**
 * `thrown` as the refusal to answer a condition of the installation with (lib/errors
 * `conditionError`: `503 storage_full` / `storage_read_only` / `database_unavailable` /
 * `database_connection_lost`), or null for anything else. A storage fault is noted for
 * `/api/health` (which finds an unreachable database by its own probe); the driver's text is logged,
 * the answer never carries it. Called once per error, by lib/api `edgeError`.
 */
export function conditionRefusal(thrown: unknown): (DomainError & { code: ConditionCode }) | null {
  const refusal = conditionError(thrown);
  if (!refusal) return null;
  if (refusal.code === 'storage_full' || refusal.code === 'storage_read_only') {
    noteStorageFault(refusal.code);
    logger.error('write refused by storage', { code: refusal.code, error: toError(thrown).message });
  } else logger.error('database fault', { code: refusal.code, error: toError(thrown).message });
  return refusal;
}
