/**
 * What a `schedules` row's enum columns hold (prisma/schema.prisma), declared once: the row codec
 * (sql/schedule-record.ts) parses every row into these, and the product contract answers them as they
 * are (SPEC §5.1; lib/schedules/contract.ts re-exports them). Universal: no I/O.
 */

/** Schedule cadences (SPEC §5.1, §12.1). */
export const REPEATS = [
  /** Once, at `invocation_time` (local wall time in `timezone`). */
  'one_time',
  /** On the AWS six-field `cron_expression`, in `timezone`. */
  'recurring_cron',
  /** Every `rate_expression` (fixed durations from an anchor instant, no DST effect). */
  'recurring_rate',
] as const;
export type Repeat = (typeof REPEATS)[number];

/** Schedule states (SPEC §5.3): `active` while it can still fire, `completed` once it can fire no more. */
export const SCHEDULE_STATES = ['active', 'completed'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

/** SPEC §12.5 `action_after_completion`: `none` (default) or `delete` once the schedule completes. */
export const AFTER_COMPLETION_ACTIONS = ['none', 'delete'] as const;
export type AfterCompletionAction = (typeof AFTER_COMPLETION_ACTIONS)[number];

/** Who creates a schedule or pauses it (SPEC §1 "auth entity"): a user or an org; `system` pauses too (SPEC §12.5). */
export const CREATOR_TYPES = ['user', 'org'] as const;
export type CreatorType = (typeof CREATOR_TYPES)[number];
export type PauserType = CreatorType | 'system';

/** SPEC §16.2 `overlap_policy` (Temporal's semantics): what an occurrence due while a run is in progress does. */
export const OVERLAP_POLICIES = [
  /** Fire it anyway (the default). */
  'allow_all',
  /** Record it `skipped`, not delivered. */
  'skip',
  /** Let the first one wait until the run in progress ends; skip any further one while it waits. */
  'buffer_one',
] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

/** SPEC §18.2 `catch_up.mode`: fire every missed occurrence inside the window (oldest first), only the latest, or none. */
export const CATCH_UP_MODES = ['all', 'latest', 'none'] as const;
export type CatchUpMode = (typeof CATCH_UP_MODES)[number];

/** SPEC §16.1 run outcomes: `pending` and `running` are in progress; the other three are terminal. */
export const RUN_OUTCOMES = ['pending', 'running', 'succeeded', 'failed', 'timed_out'] as const;
export type RunOutcomeState = (typeof RUN_OUTCOMES)[number];
/** The outcomes a run can still leave (a check-in or the deadline moves it on). */
export const OPEN_OUTCOMES = ['pending', 'running'] as const satisfies readonly RunOutcomeState[];

/**
 * What `runs.trigger` and `pending_attempts.trigger` hold: `schedule`, `manual`, or
 * `backfill:<backfill id>` (SPEC §18.1; lib/targets/define.ts says why a backfill's names it).
 */
export type FireTrigger = 'schedule' | 'manual' | `backfill:${string}`;
