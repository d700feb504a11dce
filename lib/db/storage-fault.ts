/**
 * Storage faults: the database cannot take writes because its disk is full or it is read-only
 * (a read-only file or mount, a PostgreSQL hot standby or `default_transaction_read_only`). They are
 * conditions of the installation, not of the request, so the HTTP edge answers them with `503` and a
 * stable code (`storage_full`, `storage_read_only`) instead of a generic 500, and never with the
 * driver's raw text. Reads keep working, and writes work again as soon as the condition ends: nothing
 * here holds state that needs a restart (see `lib/db/client.ts` for why a failed write no longer
 * wedges SQLite's transaction lock).
 */
import { DomainError } from '../errors';

export type StorageFaultCode = 'storage_full' | 'storage_read_only';

/** SQLite result codes and PostgreSQL SQLSTATEs of each fault. */
const CODES: Record<string, StorageFaultCode> = {
  SQLITE_FULL: 'storage_full',
  SQLITE_READONLY: 'storage_read_only',
  SQLITE_READONLY_RECOVERY: 'storage_read_only',
  SQLITE_READONLY_CANTLOCK: 'storage_read_only',
  SQLITE_READONLY_CANTINIT: 'storage_read_only',
  SQLITE_READONLY_ROLLBACK: 'storage_read_only',
  SQLITE_READONLY_DBMOVED: 'storage_read_only',
  SQLITE_READONLY_DIRECTORY: 'storage_read_only',
  /** PostgreSQL `disk_full`. */
  '53100': 'storage_full',
  /** PostgreSQL `read_only_sql_transaction` (hot standby, `default_transaction_read_only`). */
  '25006': 'storage_read_only',
};

/** The same faults by message, for wrappers that keep only the text (driver and Prisma wordings). */
const MESSAGES: [RegExp, StorageFaultCode][] = [
  [/database or disk is full|no space left on device|ENOSPC|could not extend file/i, 'storage_full'],
  [/attempt to write a readonly database|read-only file system|EROFS|read-only transaction/i, 'storage_read_only'],
];

const TEXT: Record<StorageFaultCode, string> = {
  storage_full: 'the database storage is full: nothing was written; reads still work, and writes work again once space is freed',
  storage_read_only: 'the database is read-only: nothing was written; reads still work, and writes work again once it is writable',
};

/**
 * The storage fault behind `thrown` (a driver error, Prisma's wrapper of one, or an error whose
 * `cause` chain holds one), or null for any other error.
 */
export function storageFaultOf(thrown: unknown): StorageFaultCode | null {
  const seen = new Set<unknown>();
  const stack: unknown[] = [thrown];
  while (stack.length > 0) {
    const e = stack.pop();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const rec = e as Record<string, unknown>;
    for (const key of ['code', 'originalCode']) {
      const code = rec[key];
      if (typeof code === 'string' && Object.hasOwn(CODES, code)) return CODES[code];
    }
    for (const key of ['message', 'originalMessage']) {
      const text = rec[key];
      if (typeof text === 'string') for (const [re, code] of MESSAGES) if (re.test(text)) return code;
    }
    stack.push(rec.cause, rec.meta, rec.driverAdapterError);
  }
  return null;
}

/** `thrown` as the SPEC-shaped refusal of its storage fault (`503`), or null when it is not one. */
export function storageFaultError(thrown: unknown): (DomainError & { code: StorageFaultCode }) | null {
  const code = storageFaultOf(thrown);
  return code ? (new DomainError(code, TEXT[code], { cause: thrown }) as DomainError & { code: StorageFaultCode }) : null;
}

/**
 * The storage fault this process last met on a write, until a write is seen to work again. Kept so
 * that `/api/health` can report the condition (and probe for its end) without writing on every call.
 */
let lastFault: { code: StorageFaultCode; at: Date } | null = null;

/** Remember that a write failed with `code` at `at` (called by the HTTP edge when it answers 503). */
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
