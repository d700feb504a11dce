/**
 * What this web process knows of its database's storage: the last storage fault (disk full,
 * read-only: `storageFaultError` in lib/errors) one of its writes met, until a write is seen to work
 * again. Kept here, at the HTTP edge, so that `/api/health` can report the condition (and probe for its
 * end) without writing on every call; the API's `errorResponse` and the server actions' answers note
 * each fault they answer with 503.
 */
import { databaseFaultError, storageFaultError, toError, type DatabaseFaultCode, type DomainError, type StorageFaultCode } from '../errors';
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

/**
 * `thrown` as the `503 database_unavailable` / `503 database_connection_lost` refusal to answer with
 * (lib/errors `databaseFaultError`), or null when it is not a database fault. Logs the driver's text
 * (the answer never carries it). `/api/health` finds an unreachable database by its own probe.
 */
export function databaseRefusal(thrown: unknown): (DomainError & { code: DatabaseFaultCode }) | null {
  const fault = databaseFaultError(thrown);
  if (!fault) return null;
  logger.error('database fault', { code: fault.code, error: toError(thrown).message });
  return fault;
}

/**
 * The one check both edges (the API's `errorResponse`, the server actions' answer) make for an error
 * that is a condition of the installation, not of the request: a storage fault, then a database
 * fault; null for anything else.
 */
export function conditionRefusal(thrown: unknown): (DomainError & { code: StorageFaultCode | DatabaseFaultCode }) | null {
  return storageRefusal(thrown) ?? databaseRefusal(thrown);
}
