/**
 * SQLite only: give the pages the retention sweep freed back to the file system, a bounded number at
 * a time (docs/decisions.md 118). In `auto_vacuum = INCREMENTAL` mode a delete leaves its pages on
 * the file's free list (reused by later inserts); `PRAGMA incremental_vacuum(N)` moves up to N pages
 * from the end of the file into free slots and truncates the file by as many. Each call is one write
 * transaction whose length grows with N, so the caller picks N by the time a call took.
 *
 * Under WAL the file shrinks when the WAL is checkpointed (the checkpoint truncates it to the last
 * commit's size): `checkpointPassive` asks for that without waiting for readers or blocking writers.
 * PostgreSQL has no counterpart here: autovacuum makes deleted rows' space reusable in place.
 */
import { withSqliteConnection, type Db } from '../client';

/** SQLite's `PRAGMA auto_vacuum` value for INCREMENTAL. */
const INCREMENTAL = 2;

/** The file's space: pages in use plus free, free pages, bytes per page, and whether incremental vacuum is on. */
export async function sqliteSpace(db: Db): Promise<{ pages: number; freePages: number; pageSize: number; incremental: boolean }> {
  // The product's connection reads integers as BigInt (the adapter's safeIntegers mode).
  return withSqliteConnection(db, (c) => ({
    pages: Number(c.pragma('page_count', { simple: true })),
    freePages: Number(c.pragma('freelist_count', { simple: true })),
    pageSize: Number(c.pragma('page_size', { simple: true })),
    incremental: Number(c.pragma('auto_vacuum', { simple: true })) === INCREMENTAL,
  }));
}

/**
 * Free up to `pages` pages in one write transaction (`BEGIN IMMEDIATE`, like every writer of the
 * product, decision 13) whose COMMIT skips the WAL auto-checkpoint, as the sweep's deletes do
 * (`deferCommitWork`; the caller runs `checkpointPassive` after). Returns how many were freed, how
 * many free pages are left, and how long the write lock was held (ms, from BEGIN IMMEDIATE granted to
 * COMMIT returned); a file not in incremental mode frees none (the pragma does nothing there).
 */
export async function incrementalVacuum(db: Db, pages: number): Promise<{ freed: number; freeLeft: number; heldMs: number }> {
  const n = Math.max(1, Math.floor(pages));
  return withSqliteConnection(db, (c) => {
    const autoCheckpoint = Number(c.pragma('wal_autocheckpoint', { simple: true }));
    c.exec('BEGIN IMMEDIATE');
    const held = performance.now();
    try {
      const before = Number(c.pragma('freelist_count', { simple: true }));
      // `exec` steps the pragma to its end; a prepared statement's run() would free one page.
      c.exec(`PRAGMA incremental_vacuum(${n})`);
      const after = Number(c.pragma('freelist_count', { simple: true }));
      c.pragma('wal_autocheckpoint = 0');
      c.exec('COMMIT');
      return { freed: before - after, freeLeft: after, heldMs: performance.now() - held };
    } catch (e) {
      if (c.inTransaction) c.exec('ROLLBACK');
      throw e;
    } finally {
      c.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
    }
  });
}

/**
 * `PRAGMA wal_checkpoint(PASSIVE)`: copy what it can of the WAL into the file (truncating the file
 * after a vacuum) without waiting for readers or blocking writers. Returns how long it took (ms).
 */
export async function checkpointPassive(db: Db): Promise<number> {
  return withSqliteConnection(db, (c) => {
    const started = performance.now();
    c.pragma('wal_checkpoint(PASSIVE)');
    return performance.now() - started;
  });
}
