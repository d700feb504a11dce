/**
 * The retention sweep (SPEC §9 `scheduler.run_retention_days`, default 30; `workflow.execution_retention_days`,
 * default 30, docs/decisions.md 116): run records whose fire time (`created_at`) is older than the run
 * retention are deleted, and so are activity entries (SPEC §15: the activity log is swept with the
 * runs); workflow executions older than the execution retention are deleted unless a kept run record
 * still links them; on SQLite the freed pages then go back to the file system (decision 118).
 *
 * One sweep is a sequence of bounded statements in four phases, in this order:
 *   `runs` → `activity` → `executions` → `vacuum` (SQLite in incremental auto-vacuum mode only).
 * Runs go before executions so that an execution whose run is expiring is deleted in the same sweep
 * (its run is gone by the time the execution batch looks at it). On SQLite, vacuum statements are
 * also interleaved with the deletes whenever `SWEEP_VACUUM_AT_PAGES` pages are free: the cost of
 * giving one page back grows with the length of the free list (SQLite searches it for the page),
 * about 30 µs a page with 10k free pages and 70–300 µs with 200k (docs/performance.md "Retention").
 *
 * Each statement is its own transaction, sized by time (decision 117): a batch's row limit is set so
 * that it holds the database (on SQLite, the one write lock every writer of every process needs) for
 * about `targetMs`; the next limit is the last one scaled by `targetMs / elapsed`, at most doubled
 * per batch, within [`SWEEP_MIN_BATCH`, `maxBatch`]. The cost of a row differs by table, by indexes
 * and by disk, so each phase learns its own limit, and keeps it for the next sweep. The commits skip
 * what can wait (`deferCommitWork`): on SQLite the WAL checkpoint, which the sweep then runs itself
 * after the commit, outside the write lock (PASSIVE: it blocks no writer), timed apart.
 *
 * The worker calls `step()` once between two ticks (worker/worker.ts), so fires go on between
 * batches; see lib/db/sql/delete-expired-runs.ts for why a deleted run never fires again and why
 * several workers sweeping at once is harmless.
 */
import {
  checkpointPassive,
  deferCommitWork,
  deleteExpiredExecutions,
  deleteExpiredRows,
  dialectOfDb,
  incrementalVacuum,
  inTransaction,
  sqliteSpace,
  type Db,
  type ExecutionSweepCursor,
  type Tx,
  withSqliteConnection,
} from '../../db';

/** The time one sweep statement aims to hold the database for, in ms (the bound it keeps is 50 ms, decision 117). */
export const SWEEP_TARGET_MS = 20;
/** The first limit of each phase (rows; vacuum: pages), before anything is measured. */
export const SWEEP_FIRST_BATCH = 100;
/** The smallest limit a phase shrinks to. */
export const SWEEP_MIN_BATCH = 10;
/** The largest limit a phase grows to (rows or pages in one statement). */
export const SWEEP_MAX_BATCH = 5000;
/** SQLite: free pages (4 KiB each) at which the sweep turns to vacuum statements until half of them are given back. */
export const SWEEP_VACUUM_AT_PAGES = 4096;

/**
 * SQLite: the page cache (KiB) of the sweeping connection while a sweep runs, restored when it is done
 * (decision 380). Each deleted run walks its seven b-trees from the root; at 1M runs their interior
 * pages are ~10 MB and the leaves it lands on are spread over ~70 MB of random-keyed indexes (the
 * executions' as much again): with the connection's 16 MB (better-sqlite3's default) every batch
 * read them again from the file; 64 MiB halved the CPU a deleted run costs at 1M runs. The cache
 * only takes what is read.
 */
export const SWEEP_SQLITE_CACHE_KIB = 65_536;

export type SweepPhase = 'runs' | 'activity' | 'executions' | 'vacuum';
const PHASES: readonly SweepPhase[] = ['runs', 'activity', 'executions', 'vacuum'];

/** One statement of a sweep. */
export interface SweepBatch {
  phase: SweepPhase;
  /** The instant before which this phase's rows expire (null for `vacuum`). */
  cutoff: Date | null;
  /** The most rows (vacuum: pages) this statement could delete, and read for `executions`. */
  limit: number;
  /** Rows deleted (vacuum: pages given back to the file system). */
  deleted: number;
  /** Rows looked at: `deleted` except for `executions`, where kept (linked) ones are counted too. */
  scanned: number;
  /** How long the statement's transaction held the database, in ms: BEGIN granted → COMMIT returned. */
  durationMs: number;
  /** SQLite: the passive WAL checkpoint after it (no lock held), in ms; 0 when none ran. */
  checkpointMs: number;
  /** True on the sweep's last statement: everything expired is gone (and, on SQLite, the free pages given back). */
  done: boolean;
}

export interface RetentionSweepOptions {
  db: Db;
  /** Run records and activity entries created more than this many days before the sweep's `now` go (≥ 1). */
  runRetentionDays: number;
  /** Executions created more than this many days before the sweep's `now` go, unless a kept run links them (≥ 1). */
  executionRetentionDays: number;
  /** Default SWEEP_TARGET_MS. */
  targetMs?: number;
  /** Default SWEEP_MAX_BATCH (tests lower it to see several batches). */
  maxBatch?: number;
}

/** The instant before which rows expire: `now − retentionDays × 24 h` (exclusive bound). */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/**
 * A retention sweep that runs a statement at a time. `start(now)` begins a sweep with the cutoffs of
 * `now`; `step()` runs its next statement and says when it is `done`. Not safe for concurrent `step`
 * calls on one instance (the worker calls it from its loop only); separate instances, in one process
 * or many, may sweep the same database at once.
 */
export class RetentionSweep {
  private phase: SweepPhase | null = null;
  private runCutoff = new Date(0);
  private executionCutoff = new Date(0);
  private cursor: ExecutionSweepCursor | null = null;
  /** SQLite in incremental mode (null: not known yet, asked on the first step of a sweep). */
  private vacuumable: boolean | null = null;
  /** Vacuum statements come before the next delete, until the free list is down to half of SWEEP_VACUUM_AT_PAGES. */
  private vacuuming = false;
  /** SQLite: the connection's `cache_size` before this sweep raised it (null: not raised). */
  private cacheBefore: number | null = null;
  private readonly limits: Record<SweepPhase, number>;
  private readonly targetMs: number;
  private readonly maxBatch: number;
  /** Rows (vacuum: pages) each phase deleted in the current sweep. */
  readonly totals: Record<SweepPhase, number> = { runs: 0, activity: 0, executions: 0, vacuum: 0 };

  constructor(private readonly opts: RetentionSweepOptions) {
    this.targetMs = opts.targetMs ?? SWEEP_TARGET_MS;
    this.maxBatch = opts.maxBatch ?? SWEEP_MAX_BATCH;
    const first = Math.min(SWEEP_FIRST_BATCH, this.maxBatch);
    this.limits = { runs: first, activity: first, executions: first, vacuum: first };
  }

  /** True between `start` and the batch that reports `done`. */
  get running(): boolean {
    return this.phase !== null;
  }

  /** Begin a sweep (or restart the one in progress) with the cutoffs of `now`. */
  start(now: Date): { runCutoff: Date; executionCutoff: Date } {
    this.runCutoff = retentionCutoff(now, this.opts.runRetentionDays);
    this.executionCutoff = retentionCutoff(now, this.opts.executionRetentionDays);
    this.cursor = null;
    this.vacuuming = false;
    this.phase = PHASES[0];
    for (const p of PHASES) this.totals[p] = 0;
    return { runCutoff: this.runCutoff, executionCutoff: this.executionCutoff };
  }

  /**
   * Run the sweep's next statement: one bounded delete (or one incremental vacuum) in its own
   * transaction. A phase ends with its first batch that finds less than its limit; the vacuum phase
   * is entered only on SQLite in incremental mode with free pages (and between deletes, see the file
   * comment). On SQLite a batch that deleted something is followed by a passive WAL checkpoint (it
   * waits for no reader and blocks no writer).
   * @throws when no sweep is running (call `start` first), and what the database throws.
   */
  async step(): Promise<SweepBatch> {
    if (this.phase === null) throw new Error('RetentionSweep.step: no sweep is running; call start(now) first');
    this.vacuumable ??= dialectOfDb(this.opts.db) === 'sqlite' && (await sqliteSpace(this.opts.db)).incremental;
    if (this.cacheBefore === null && dialectOfDb(this.opts.db) === 'sqlite') this.cacheBefore = await raiseCache(this.opts.db);
    const phase = this.vacuuming ? 'vacuum' : this.phase;
    const limit = this.limits[phase];
    let cutoff: Date | null = null;
    let deleted = 0;
    let scanned = 0;
    let durationMs = 0;
    let phaseDone: boolean;
    let freeLeft: number | null = null;
    if (phase === 'vacuum') {
      const out = await incrementalVacuum(this.opts.db, limit);
      ({ heldMs: durationMs, freeLeft } = out);
      deleted = scanned = out.freed;
      phaseDone = out.freeLeft === 0 || out.freed < limit;
    } else {
      cutoff = phase === 'executions' ? this.executionCutoff : this.runCutoff;
      const c = cutoff;
      ({ value: { deleted, scanned }, heldMs: durationMs } = await timedTransaction(this.opts.db, async (tx) => {
        await deferCommitWork(this.opts.db, tx);
        if (phase !== 'executions') {
          const n = await deleteExpiredRows(tx, phase, c, limit);
          return { deleted: n, scanned: n };
        }
        const out = await deleteExpiredExecutions(tx, { cutoff: c, after: this.cursor, limit });
        if (out.last) this.cursor = out.last;
        return out;
      }));
      phaseDone = scanned < limit;
    }
    // What the commit left in the WAL goes to the file now, outside the write lock (and, after a
    // vacuum, this is what truncates the file).
    const checkpointMs = deleted > 0 && dialectOfDb(this.opts.db) === 'sqlite' ? await checkpointPassive(this.opts.db) : 0;
    this.totals[phase] += deleted;
    // A full batch measures the cost of `limit` rows: size the next one by it.
    if (!phaseDone && durationMs > 0) this.limits[phase] = this.nextLimit(limit, durationMs);
    if (this.vacuuming) {
      // An interleaved vacuum: back to deleting once half the threshold is left (or nothing more moves).
      this.vacuuming = !phaseDone && (freeLeft ?? 0) > SWEEP_VACUUM_AT_PAGES / 2;
    } else if (phaseDone) {
      this.phase = await this.nextPhase(phase);
      if (this.phase === null && this.cacheBefore !== null) {
        const before = this.cacheBefore;
        await withSqliteConnection(this.opts.db, (c) => c.pragma(`cache_size = ${before}`));
        this.cacheBefore = null;
      }
    } else if (this.vacuumable && deleted > 0) {
      this.vacuuming = (await sqliteSpace(this.opts.db)).freePages >= SWEEP_VACUUM_AT_PAGES;
    }
    return { phase, cutoff, limit, deleted, scanned, durationMs, checkpointMs, done: this.phase === null };
  }

  private nextLimit(limit: number, durationMs: number): number {
    const scaled = Math.round((limit * this.targetMs) / durationMs);
    return Math.max(SWEEP_MIN_BATCH, Math.min(this.maxBatch, 2 * limit, scaled));
  }

  /** The phase after `phase`, or null when the sweep is done; `vacuum` only where it can free something. */
  private async nextPhase(phase: SweepPhase): Promise<SweepPhase | null> {
    const next = PHASES[PHASES.indexOf(phase) + 1] ?? null;
    if (next !== 'vacuum') return next;
    if (!this.vacuumable) return null;
    return (await sqliteSpace(this.opts.db)).freePages > 0 ? 'vacuum' : null;
  }
}

/** SQLite: set the connection's page cache to at least SWEEP_SQLITE_CACHE_KIB; returns the `cache_size` it had (pages if > 0, KiB if < 0). */
async function raiseCache(db: Db): Promise<number> {
  return withSqliteConnection(db, (c) => {
    const before = Number(c.pragma('cache_size', { simple: true }));
    const pageSize = Number(c.pragma('page_size', { simple: true }));
    const kib = before < 0 ? -before : (before * pageSize) / 1024;
    if (kib < SWEEP_SQLITE_CACHE_KIB) c.pragma(`cache_size = -${SWEEP_SQLITE_CACHE_KIB}`);
    return before;
  });
}

/**
 * `inTransaction`, timed from inside: from the moment the callback starts (the transaction is open;
 * on SQLite BEGIN IMMEDIATE has been granted, so waiting for another process's lock is not counted)
 * to the moment the commit has returned.
 */
async function timedTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<{ value: T; heldMs: number }> {
  let started = 0;
  const value = await inTransaction(db, (tx) => {
    started = performance.now();
    return fn(tx);
  });
  return { value, heldMs: performance.now() - started };
}
