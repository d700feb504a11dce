/**
 * What the fire engine is given rather than imports (STYLE §7: "a facade's own rules reach the
 * domain as parameters"): the per-scheduler facts drivers need, what an API facade stored beside a
 * schedule, and the activity log its transactions write to. lib/schedules composes the product's
 * (`schedulerEngine`); a process edge adds its facades' (`engine.with(…)`, worker/main.ts).
 */
import type { FiringSchedule, Tx } from '../db';
import type { ScheduleIdentity, SchedulerFactSources } from '../targets';
import type { CheckinUrls } from './checkin-token';

/**
 * What an API facade stored beside a schedule (the row's facade data, opaque to the engine) that
 * changes how its fires name themselves (SPEC §13.3, §14). Read from the row alone: no I/O.
 */
export interface FacadeFacts {
  /**
   * The identity the schedule was saved under on the facade, when its fires must use it and a target
   * without a payload of its own gets the default event (SPEC §13.3: the EventBridge API, for a
   * Target without Input); else null.
   */
  storedIdentity(facadeData: unknown): ScheduleIdentity | null;
  /** The region the schedule was last saved in on the facade, else null (the worker's AWS region then). */
  storedRegion(facadeData: unknown): string | null;
}

/** No facade: every schedule names itself as the product does. */
export const NO_FACADE: FacadeFacts = { storedIdentity: () => null, storedRegion: () => null };

/** One activity entry the engine writes (SPEC §15), by `system`, in the transaction that makes the change. */
export interface EngineActivity {
  /** `auto_pause`: `pause_after_failures` disabled the schedule (SPEC §12.5); `delete`: deleted after completion. */
  action: 'auto_pause' | 'delete';
  schedule: { id: string; revisionId: string; name: string | null; alias: string | null };
  at: Date;
}

/**
 * A fact about a schedule that alerts report (SPEC §17), handed over in the transaction that records
 * it, so what it raises commits (or rolls back) with the fact: exactly once.
 * - `ended`: an occurrence ended (`ok`: its last attempt or its outcome succeeded), leaving the
 *   schedule at `consecutiveFailures`;
 * - `dead_letter`: an exhausted occurrence entered the dead-letter list;
 * - `missed`: `skipped` occurrences were not fired (beyond the catch-up window, or the overlap policy);
 * - `paused`: the worker disabled the schedule (`pause_after_failures`, or an unplannable schedule).
 */
export type ScheduleFact = { schedule: FiringSchedule; scheduledFor: Date | null } & (
  | { kind: 'ended'; ok: boolean; attempt: number; consecutiveFailures: number; status: string | null; result: Record<string, unknown> | null; outcome: string | null }
  | { kind: 'dead_letter'; attempt: number; status: string; result: Record<string, unknown>; exhausted: string; consecutiveFailures: number }
  | { kind: 'missed'; skipped: number; reason: 'catch_up_window' | 'overlap' }
  /** `consecutiveFailures`: the count that paused it (the schedule's row still holds the count before). */
  | { kind: 'paused'; note: string | null; consecutiveFailures: number }
);

export interface EngineDeps {
  /** Where each per-scheduler fact comes from (SPEC §13.1 secrets, §14 account and scheduler name). */
  facts: SchedulerFactSources;
  /** What facades stored beside schedules. */
  facade: FacadeFacts;
  /** SPEC §15: writes the engine's activity entries in the caller's transaction. */
  recordActivity(tx: Tx, entries: EngineActivity[]): Promise<void>;
  /**
   * SPEC §16.1: each attempt's check-in URL (the process's edge composes it from SCHEDULER_PUBLIC_URL
   * and the server key, `checkinUrls`), or null: attempts then carry none and the
   * `<scheduler.checkin-url>` token passes through unchanged.
   */
  checkins: CheckinUrls | null;
  /** SPEC §17: raises the alerts `facts` call for, in the caller's transaction at `now`; absent: no alerts. */
  raise?(tx: Tx, facts: ScheduleFact[], now: Date): Promise<void>;
}

/** What a facade (or a test) may replace in a set of engine deps: its facts, and any fact source. */
export interface EngineOverrides {
  facade?: FacadeFacts;
  facts?: Partial<SchedulerFactSources>;
  checkins?: CheckinUrls | null;
  /** SPEC §17: the alerts raised, or null: none. */
  raise?: EngineDeps['raise'] | null;
}
