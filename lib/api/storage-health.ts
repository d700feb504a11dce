/**
 * What this web process knows of its database's storage: the last storage fault (disk full,
 * read-only: `storageFaultError` in lib/errors) one of its writes met, until a write is seen to work
 * again. Kept here, at the HTTP edge, so that `/api/health` can report the condition (and probe for its
 * end) without writing on every call; the API's `errorResponse` and the server actions' answers note
 * each fault they answer with 503.
 */
import { storageFaultError, toError, type DomainError, type StorageFaultCode } from '../errors';
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
 * `thrown` as the `503 storage_full` / `503 storage_read_only` refusal to answer with, or null when it
 * is not a storage fault. Notes the fault for `/api/health` and logs the driver's text (the answer
 * never carries it).
 */
export function storageRefusal(thrown: unknown): (DomainError & { code: StorageFaultCode }) | null {
  const storage = storageFaultError(thrown);
  if (!storage) return null;
  noteStorageFault(storage.code);
  logger.error('write refused by storage', { code: storage.code, error: toError(thrown).message });
  return storage;
}
