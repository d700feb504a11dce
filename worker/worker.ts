/**
 * The worker loop (SPEC §8). Only this file reads the clock, through the injected `clock`;
 * `tick(now)` takes `now` as a parameter so tests drive time without fake timers.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Limits } from '../lib/config';
import type { Db } from '../lib/db';
import { toError } from '../lib/errors';
import { fireOccurrence, listDueOccurrences } from '../lib/schedules';
import { WorkerEvents } from './events';

export interface WorkerOptions {
  db: Db;
  limits: Limits;
  /** Due occurrences taken per tick. */
  batchSize: number;
  /** Pause between ticks when nothing was due, in ms. */
  pollIntervalMs: number;
  clock?: () => Date;
}

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly events = new WorkerEvents();
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly clock: () => Date;
  private readonly startedAt: Date;

  constructor(private readonly opts: WorkerOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.startedAt = this.clock();
  }

  /**
   * One pass: fire every occurrence due at `now` (up to `batchSize`). Returns how many were handled.
   * Serialization is desired: one fire at a time keeps SQLite's single writer uncontended.
   */
  async tick(now: Date): Promise<number> {
    const due = await listDueOccurrences(this.opts.db, now, this.opts.batchSize);
    this.events.emit('tick:start', { now, due: due.length });
    for (const { scheduleId, scheduledFor } of due) {
      const out = await fireOccurrence({ db: this.opts.db, scheduleId, scheduledFor, now: this.clock(), limits: this.opts.limits });
      if (out.kind === 'fired') {
        const error = 'error' in out.run.result ? out.run.result.error : undefined;
        this.events.emit('occurrence:fired', { scheduleId, scheduledFor, lateMs: out.lateMs, status: out.run.status, error, runId: out.run.runId, completed: out.completed });
      } else if (out.kind === 'skipped') {
        this.events.emit('occurrence:skipped', { scheduleId, scheduledFor, skipped: out.skipped, reason: 'outside-catchup-window', completed: out.completed });
      } else {
        this.events.emit('occurrence:lost-race', { scheduleId, scheduledFor });
      }
      // A full batch means more may be due: the loop ticks again at once.
    }
    return due.length;
  }

  /** Record this worker's liveness for GET /api/health. */
  async heartbeat(now: Date): Promise<void> {
    await this.opts.db.workerHeartbeat.upsert({
      where: { id: this.id },
      create: { id: this.id, startedAt: this.startedAt, lastSeenAt: now },
      update: { lastSeenAt: now },
    });
  }

  /** Run until `stop()`: tick, then sleep `pollIntervalMs` unless the batch was full. */
  async run(): Promise<void> {
    this.events.emit('worker:start', { workerId: this.id });
    let lastBeat = 0;
    let backoffMs = this.opts.pollIntervalMs;
    while (!this.stopping) {
      let handled = 0;
      try {
        const now = this.clock();
        if (now.getTime() - lastBeat >= 5_000) {
          await this.heartbeat(now);
          lastBeat = now.getTime();
        }
        handled = await this.tick(now);
        backoffMs = this.opts.pollIntervalMs;
      } catch (e) {
        this.events.emit('tick:error', { error: toError(e) });
        backoffMs = Math.min(backoffMs * 2, 30_000);
      }
      if (this.stopping) break;
      if (handled < this.opts.batchSize) await this.sleep(backoffMs);
    }
    await this.opts.db.workerHeartbeat.delete({ where: { id: this.id } }).catch(() => undefined);
  }

  /** Ask the loop to stop after the batch in hand (graceful shutdown). */
  stop(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.events.emit('worker:stop', { workerId: this.id, reason });
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}
