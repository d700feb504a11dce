/**
 * The schedule contract of SPEC §5–§6: one zod schema per shape, shared by the API, the server
 * actions, the New Schedule form and the CLI manifest (STYLE §2.3). Universal: no I/O, no clock.
 *
 * Structural problems (wrong type, unknown key, missing field) are plain zod issues and become
 * `400 invalid_request_body`. Rules with their own SPEC code are custom issues carrying
 * `params.code`; `firstIssueError` picks the structural ones first, then the coded ones.
 */
import { z } from 'zod';
import type { Role } from '../auth';
import { CronExpressionError, isValidTimezone, LocalTimeError, parseCronExpression, parseRateExpression, RateExpressionError, resolveLocalTime } from '../cron';
import { AFTER_COMPLETION_ACTIONS, OVERLAP_POLICIES, REPEATS, RUN_OUTCOMES, SCHEDULE_STATES, type Repeat } from '../db/contract';
import { EXHAUSTED_REASONS } from '../engine/contract';
import {
  AnyTargetSchema,
  DeadLetterConfigSchema,
  INVOCATION_TARGET_TYPES,
  RUN_STATUSES,
  RUN_TRIGGERS,
  TARGET_RESULT_SCHEMAS,
  TARGET_INPUT_SCHEMAS,
  targetTypeOf,
  withTarget,
  type InvocationTargetType,
} from '../targets/contract';
import { aliasProblem } from '../ids';
import { AlertListPage, AlertRuleAnswer, AlertRuleIdParams, AlertRuleListAnswer, CreateAlertRuleParams, ListAlertRulesParams, ListAlertsParams, UpdateAlertRuleParams } from './alerts/contract';
import {
  AuthEntitySchema,
  DESCRIPTION_MAX,
  EmptyAnswer,
  IdSchema,
  InstantSchema,
  INVOCATION_ERRORS,
  type CommandContract,
} from '../workflows/contract';

/**
 * Every target type's contract (SPEC §6, §13: `workflow`, `http`, `aws`), the registry that names
 * them (`TARGET_CONTRACTS`), `dead_letter` (SPEC §12.3) and the run enums, re-exported for the form,
 * the API and the CLI: lib/targets/contract.ts declares each once.
 */
export * from '../targets/contract';
/** A schedule's cadences, states and after-completion actions: the row's vocabulary (lib/db/contract.ts), answered as is. */
export { AFTER_COMPLETION_ACTIONS, CATCH_UP_MODES, OVERLAP_POLICIES, REPEATS, RUN_OUTCOMES, OPEN_OUTCOMES, SCHEDULE_STATES, type AfterCompletionAction, type CatchUpMode, type OverlapPolicy, type Repeat, type RunOutcomeState, type ScheduleState } from '../db/contract';
import { CATCH_UP_MODES } from '../db/contract';
/** The engine's names and back-off rule (SPEC §8.1, §12.2), re-exported for the form. */
export { EXHAUSTED_REASONS, MAX_RETRY_DELAY_SECONDS, retryDelaySeconds, type ExhaustedReason } from '../engine/contract';
/** Id-or-alias helpers, re-exported so clients that may import only the contract (the CLI) share them. */
export { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, isIdShape, normalizeRef } from '../ids';
/** The pieces of `invocation_target` the workflow catalog owns (SPEC §6), re-exported for the form and the CLI. */
export {
  DESCRIPTION_MAX,
  INPUT_DATA_MAX_BYTES,
  INVOCATION_ERRORS,
  InputDataSchema,
  TargetRefSchema,
  WorkflowRefSchema,
  type InputDatum,
  type InvocationError,
  type TargetRef,
  type WorkflowRef,
} from '../workflows/contract';

/** The field that states each cadence (and is refused with the others), SPEC §5.2. */
export const CADENCE_FIELD = { one_time: 'invocation_time', recurring_cron: 'cron_expression', recurring_rate: 'rate_expression' } as const satisfies Record<Repeat, string>;

/** Bounds of SPEC §12.2 `retry_policy`, inclusive. */
export const RETRY_BOUNDS = { maximumRetryAttempts: [0, 185], maximumEventAgeSeconds: [60, 86_400] } as const;
/** The EventBridge API's retry policy when none is given (SPEC §12.2, as AWS returns it). */
export const EVENTBRIDGE_DEFAULT_RETRY = { maximum_retry_attempts: 185, maximum_event_age_seconds: 86_400 } as const;

/**
 * `retry_policy` (SPEC §12.2): after a failed attempt, retry with back-off `min(60 × 2^(n−1), 86400)` s
 * up to `maximum_retry_attempts` times while the retry starts within `maximum_event_age_seconds` of
 * `scheduled_for`. As returned, both fields are set; a request may leave either out for its
 * EventBridge default (185 attempts, 86,400 s).
 */
export const RetryPolicySchema = z.strictObject({
  maximum_retry_attempts: z.int().min(RETRY_BOUNDS.maximumRetryAttempts[0]).max(RETRY_BOUNDS.maximumRetryAttempts[1]),
  maximum_event_age_seconds: z.int().min(RETRY_BOUNDS.maximumEventAgeSeconds[0]).max(RETRY_BOUNDS.maximumEventAgeSeconds[1]),
});
export type RetryPolicyJson = z.infer<typeof RetryPolicySchema>;

/** Bounds of SPEC §12.4 `maximum_window_minutes`, inclusive. */
export const FLEXIBLE_WINDOW_MINUTES = [1, 1440] as const;

/** `flexible_time_window` (SPEC §12.4): `off` (default) or `flexible` with a window of 1–1440 minutes. */
export const FlexibleTimeWindowSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('off') }),
  z.strictObject({ mode: z.literal('flexible'), maximum_window_minutes: z.int().min(FLEXIBLE_WINDOW_MINUTES[0]).max(FLEXIBLE_WINDOW_MINUTES[1]) }),
]);
export type FlexibleTimeWindow = z.infer<typeof FlexibleTimeWindowSchema>;

/** Bounds of SPEC §16.1 `completion.expect_within_seconds`, inclusive (10 s to 7 days). */
export const EXPECT_WITHIN_SECONDS = [10, 604_800] as const;

/**
 * SPEC §16.1 `completion`: the schedule expects each delivered run to check in a terminal outcome
 * within `expect_within_seconds` of its delivery (or of its `/start`), else the run is `timed_out`.
 */
export const CompletionSchema = z.strictObject({
  expect_within_seconds: z.int().min(EXPECT_WITHIN_SECONDS[0]).max(EXPECT_WITHIN_SECONDS[1]),
});
export type Completion = z.infer<typeof CompletionSchema>;

/** Bounds of SPEC §18.2 `catch_up.window_seconds` (0 s to 365 days) and `catch_up.max_burst`, inclusive. */
export const CATCH_UP_WINDOW_SECONDS = [0, 31_536_000] as const;
export const CATCH_UP_MAX_BURST = [1, 1000] as const;

/**
 * SPEC §18.2 `catch_up`: how the schedule catches up after the worker was down or behind. Absent: the
 * scheduler-wide `scheduler.catchup_window_seconds`, `all`, no cap. `max_burst` (only with `all`
 * meaningful, accepted with any mode) caps how many missed occurrences fire.
 */
export const CatchUpSchema = z.strictObject({
  window_seconds: z.int().min(CATCH_UP_WINDOW_SECONDS[0]).max(CATCH_UP_WINDOW_SECONDS[1]),
  mode: z.enum(CATCH_UP_MODES),
  max_burst: z.int().min(CATCH_UP_MAX_BURST[0]).max(CATCH_UP_MAX_BURST[1]).optional(),
});
export type CatchUp = z.infer<typeof CatchUpSchema>;

/** Longest check-in body kept as `outcome_message`, in bytes (SPEC §16.1: the first 1 KiB). */
export const OUTCOME_MESSAGE_MAX_BYTES = 1024;

/** Bounds of SPEC §12.5 `pause_after_failures`, inclusive. */
export const PAUSE_AFTER_FAILURES = [1, 1000] as const;
/** Longest `paused.note`, in characters (SPEC §12.5). */
export const PAUSE_NOTE_MAX = 256;

/**
 * `paused` of a disabled schedule (SPEC §12.5), read-only but for its `note`: who disabled it
 * (`system` when `pause_after_failures` did), when, the note, and `bulk: true` when
 * `set_all_enabled(false)` did it.
 */
export const PausedSchema = z.strictObject({
  by: z.union([AuthEntitySchema, z.strictObject({ type: z.literal('system') })]),
  at: InstantSchema,
  note: z.string().max(PAUSE_NOTE_MAX).optional(),
  bulk: z.literal(true).optional(),
});
export type Paused = z.infer<typeof PausedSchema>;

/** Codes a custom issue may carry (the rest of SPEC §5.2 is decided with the database or the clock). */
type CodedIssue =
  | 'invalid_alias'
  | 'invalid_cron_expression'
  | 'invalid_rate_expression'
  | 'invalid_timezone'
  | 'invalid_invocation_time'
  | 'invalid_date_window';

function coded(ctx: z.RefinementCtx, code: CodedIssue, message: string, path: (string | number)[] = []) {
  ctx.addIssue({ code: 'custom', message, path, params: { code } });
}

/** A local wall time without offset (SPEC §5.1 `invocation_time`). */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** ISO 8601 instant with `Z` or an offset; normalized to UTC when stored. */
const IsoInstant = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), {
  message: 'must be an ISO 8601 instant such as 2026-01-01T00:00:00Z',
});

/**
 * The writable fields of a schedule, as a request names them (SPEC §5.1), without cross-field rules.
 * `null` clears an optional field (alias, description, start_date, end_date).
 */
export const ScheduleTimingFieldsSchema = z
  .object({
    alias: z.string().max(200).nullable().optional(),
    description: z.string().max(DESCRIPTION_MAX, `description must be at most ${DESCRIPTION_MAX} characters`).nullable().optional(),
    repeat: z.enum(REPEATS),
    invocation_time: z.string().max(64).optional(),
    cron_expression: z.string().max(256).optional(),
    rate_expression: z.string().max(256).optional(),
    timezone: z.string().max(64),
    start_date: IsoInstant.nullable().optional(),
    end_date: IsoInstant.nullable().optional(),
    flexible_time_window: FlexibleTimeWindowSchema.optional(),
    enabled: z.boolean().optional(),
    /** Only `note` may be written (SPEC §12.5), and only while the schedule is or becomes disabled. */
    paused: z.strictObject({ note: z.string().max(PAUSE_NOTE_MAX, `paused.note must be at most ${PAUSE_NOTE_MAX} characters`).nullable() }).optional(),
    retry_policy: RetryPolicySchema.partial().nullable().optional(),
    dead_letter: DeadLetterConfigSchema.nullable().optional(),
    action_after_completion: z.enum(AFTER_COMPLETION_ACTIONS).optional(),
    pause_after_failures: z.int().min(PAUSE_AFTER_FAILURES[0]).max(PAUSE_AFTER_FAILURES[1]).nullable().optional(),
    /** SPEC §16.1; `null` clears it (runs then expect no outcome). */
    completion: CompletionSchema.nullable().optional(),
    /** SPEC §16.2 (default `allow_all`); it has an effect only with `completion`. */
    overlap_policy: z.enum(OVERLAP_POLICIES).optional(),
    /** SPEC §18.2; `null` clears it (the scheduler-wide catch-up window, `all`, no cap). */
    catch_up: CatchUpSchema.nullable().optional(),
  })
  .strict();

/**
 * The writable fields of a schedule with its target (SPEC §5.1, §13), without cross-field rules: one
 * variant per `invocation_target_type` (`workflow` when left out).
 */
export const ScheduleFieldsSchema = withTarget(ScheduleTimingFieldsSchema.shape, 'save');

/** The SPEC §5.2 rules that need neither the database nor the clock. */
function checkScheduleRules(s: z.infer<typeof ScheduleTimingFieldsSchema>, ctx: z.RefinementCtx): void {
  // Each cadence is stated by its one field (SPEC §5.2): the others are refused, its own is required.
  const own = CADENCE_FIELD[s.repeat];
  for (const [repeat, field] of Object.entries(CADENCE_FIELD)) {
    if (field !== own && s[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is only for repeat "${repeat}"` });
  }
  if (s[own] === undefined) ctx.addIssue({ code: 'custom', path: [own], message: `${own} is required for repeat "${s.repeat}"` });
  if (s.alias != null) {
    const problem = aliasProblem(s.alias);
    if (problem) coded(ctx, 'invalid_alias', problem, ['alias']);
  }
  const zoneOk = isValidTimezone(s.timezone);
  if (!zoneOk) coded(ctx, 'invalid_timezone', `timezone "${s.timezone.slice(0, 64)}" is not an IANA time zone name (such as "UTC" or "Europe/Berlin")`, ['timezone']);
  if (s.repeat === 'recurring_cron' && s.cron_expression !== undefined) {
    try {
      parseCronExpression(s.cron_expression);
    } catch (e) {
      if (!(e instanceof CronExpressionError)) throw e;
      coded(ctx, 'invalid_cron_expression', e.message, ['cron_expression']);
    }
  }
  if (s.repeat === 'recurring_rate' && s.rate_expression !== undefined) {
    try {
      parseRateExpression(s.rate_expression);
    } catch (e) {
      if (!(e instanceof RateExpressionError)) throw e;
      coded(ctx, 'invalid_rate_expression', e.message, ['rate_expression']);
    }
  }
  if (s.repeat === 'one_time' && s.invocation_time !== undefined) {
    if (!LOCAL_TIME.test(s.invocation_time)) {
      coded(ctx, 'invalid_invocation_time', 'invocation_time must be a local wall time YYYY-MM-DDTHH:mm:ss without offset', ['invocation_time']);
    } else if (zoneOk) {
      try {
        resolveLocalTime(s.invocation_time, s.timezone);
      } catch (e) {
        if (!(e instanceof LocalTimeError)) throw e;
        coded(ctx, 'invalid_invocation_time', e.message, ['invocation_time']);
      }
    }
  }
  if (s.start_date != null && s.end_date != null && Date.parse(s.end_date) <= Date.parse(s.start_date)) {
    coded(ctx, 'invalid_date_window', 'end_date must be after start_date', ['end_date']);
  }
}

/** `create_schedule` input: every writable field with the cross-field rules (SPEC §5, §13). */
export const ScheduleCreateInput = ScheduleFieldsSchema.superRefine(checkScheduleRules);
export type ScheduleCreateInput = z.infer<typeof ScheduleCreateInput>;

/**
 * A schedule whose target is checked as stored (SPEC §14): the EventBridge API's saves, whose `aws`
 * target may name any service, and an update that leaves a stored target as it is. The same rules.
 */
export const StoredTargetScheduleInput = withTarget(ScheduleTimingFieldsSchema.shape, 'stored-save').superRefine(checkScheduleRules);

/** The fields an update may send, each optional; `invocation_target` is checked by `checkPatchTarget`. */
const ScheduleUpdateShape = ScheduleTimingFieldsSchema.partial().extend({
  invocation_target_type: z.enum(INVOCATION_TARGET_TYPES).optional(),
  invocation_target: z.record(z.string(), z.unknown()).optional(),
}).shape;

/**
 * Every writable field of a schedule (SPEC §5.1, §12, §13), in request-schema order: the keys of the
 * update shape above (the create schema's fields, `invocation_target_type` and `invocation_target`).
 * Derived from the schema, never typed out, so a field added to `ScheduleTimingFieldsSchema` is listed
 * here at once; the CLI compares, pulls and deploys exactly these (cli/diff.ts).
 */
export const SCHEDULE_WRITABLE_FIELDS = Object.keys(ScheduleUpdateShape) as (keyof typeof ScheduleUpdateShape)[];
export type ScheduleWritableField = keyof typeof ScheduleUpdateShape;

/**
 * A patch's `invocation_target` against the schema of its type: the type sent with it, else the one its
 * keys say (`targetTypeOf`). Its issues keep their paths under `invocation_target`.
 */
function checkPatchTarget(p: { invocation_target_type?: InvocationTargetType; invocation_target?: Record<string, unknown> }, ctx: z.RefinementCtx): void {
  if (p.invocation_target === undefined) return;
  const result = TARGET_INPUT_SCHEMAS[p.invocation_target_type ?? targetTypeOf(p.invocation_target)].safeParse(p.invocation_target);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ['invocation_target', ...issue.path] } as never);
}

/**
 * `update_schedule` input: any subset of the writable fields (SPEC §3.1). An `invocation_target` sent
 * without `invocation_target_type` keeps the stored type. Cross-field rules run on the stored schedule
 * merged with these fields (update-schedule.ts).
 */
export const ScheduleUpdateInput = z.strictObject(ScheduleUpdateShape).superRefine(checkPatchTarget);
export type ScheduleUpdateInput = z.infer<typeof ScheduleUpdateInput>;

/**
 * The read-only part of a schedule (SPEC §5.1, STYLE §3.1 "info"): written only by the server, and
 * exactly the fields a request may not name (`400 invalid_request_body`).
 */
export const ScheduleInfoSchema = z.strictObject({
  id: IdSchema,
  /** The name in its schedule group on the EventBridge-compatible API (SPEC §14): the EventBridge
   * `Name`, else the alias, else the id; fixed at creation. */
  name: z.string(),
  state: z.enum(SCHEDULE_STATES),
  /** The next occurrence the worker will fire (UTC); null when completed or disabled. */
  next_fire_at: InstantSchema.nullable(),
  created_by: AuthEntitySchema,
  /** Occurrences skipped because they were later than the catch-up window (SPEC §8). */
  skipped_occurrences: z.int().min(0),
  /** Present while disabled: who disabled it, when, why (SPEC §12.5). Only its `note` is writable. */
  paused: PausedSchema.optional(),
  /** Incremented by every change but a fire's (SPEC §15); send it back as `expected_version`. */
  version: z.int().min(1),
  created_at: InstantSchema,
  /** When `version` last moved: the last change, never a fire or a completion (docs/decisions.md 260). */
  updated_at: InstantSchema,
});
export type ScheduleInfo = z.infer<typeof ScheduleInfoSchema>;
/** The names of the info fields, in answer order. */
export const SCHEDULE_INFO_FIELDS = ScheduleInfoSchema.keyof().options;

/**
 * A schedule as the API returns it (SPEC §5.1): its writable fields as stored, then its info. Optional
 * fields are omitted, never null. Invariant (pinned by a type test): a `Schedule` without its info
 * fields is a valid `ScheduleCreateInput`, which `pull` then `deploy` relies on.
 */
export const ScheduleSchema = withTarget({
  alias: z.string().optional(),
  description: z.string().max(DESCRIPTION_MAX).optional(),
  repeat: z.enum(REPEATS),
  /** `one_time` only: local wall time in `timezone`, no offset. */
  invocation_time: z.string().regex(LOCAL_TIME).optional(),
  /** `recurring_cron` only: the six inner AWS fields, as written. */
  cron_expression: z.string().optional(),
  /** `recurring_rate` only: `<value> <unit>`, as written (SPEC §12.1). */
  rate_expression: z.string().optional(),
  /** IANA zone name. */
  timezone: z.string(),
  start_date: InstantSchema.optional(),
  end_date: InstantSchema.optional(),
  /** Omitted when `off` (the default, SPEC §12.4). */
  flexible_time_window: FlexibleTimeWindowSchema.optional(),
  enabled: z.boolean(),
  /** Omitted when none: one attempt, no retry (SPEC §12.2). */
  retry_policy: RetryPolicySchema.optional(),
  /** Omitted when none (SPEC §12.3). */
  dead_letter: DeadLetterConfigSchema.optional(),
  /** Omitted when `none` (the default, SPEC §12.5). */
  action_after_completion: z.literal('delete').optional(),
  /** Omitted when none (SPEC §12.5). */
  pause_after_failures: z.int().min(PAUSE_AFTER_FAILURES[0]).max(PAUSE_AFTER_FAILURES[1]).optional(),
  /** Omitted when none: runs expect no outcome (SPEC §16.1). */
  completion: CompletionSchema.optional(),
  /** Omitted when `allow_all` (the default, SPEC §16.2). */
  overlap_policy: z.enum(['skip', 'buffer_one']).optional(),
  /** Omitted when none: the scheduler-wide catch-up window, `all`, no cap (SPEC §18.2). */
  catch_up: CatchUpSchema.optional(),
  ...ScheduleInfoSchema.shape,
});
export type Schedule = z.infer<typeof ScheduleSchema>;
/** A schedule with a workflow target (SPEC §6): every schedule the product API, the web form and the CLI save. */
export type WorkflowSchedule = Extract<Schedule, { invocation_target_type: 'workflow' }>;

/**
 * `result` of a run (SPEC §8.1, §13): a workflow target's resolved ids on success, else the refusal;
 * a webhook's answer (`HttpResultSchema`) or an AWS service's (`AwsResultSchema`).
 */
export const RunResultSchema = z.union([
  z.strictObject({ execution_id: IdSchema, revision_id: IdSchema, session_id: IdSchema, definition_id: IdSchema }),
  z.strictObject({ error: z.literal('limit_exceeded'), limit: z.string(), message: z.string() }),
  z.strictObject({ error: z.enum(INVOCATION_ERRORS), message: z.string().optional() }),
  /** SPEC §16.2: a `skipped` run, not delivered because run `in_progress_run_id` was in progress. */
  z.strictObject({ error: z.literal('overlap'), in_progress_run_id: IdSchema }),
  ...TARGET_RESULT_SCHEMAS,
]);
export type RunResult = z.infer<typeof RunResultSchema>;

/** A run record as `list_executions` and `run_schedule` answer it (SPEC §8.1). */
export const RunSchema = withTarget({
  id: IdSchema,
  schedule_id: IdSchema,
  /** The occurrence instant (UTC); for a manual fire, when it was asked for. */
  scheduled_for: InstantSchema,
  trigger: z.enum(RUN_TRIGGERS),
  /** When the fire was recorded (UTC). */
  created_at: InstantSchema,
  description: z.string().optional(),
  /** 1 for an occurrence's first attempt (and every manual fire), 2… for its retries (SPEC §12.2). */
  attempt: z.int().min(1),
  status: z.enum(RUN_STATUSES),
  /** A failed attempt that will be retried: when the next attempt is due. */
  next_attempt_at: InstantSchema.optional(),
  /** A failed attempt that ends its occurrence's retries: why (SPEC §8.1). */
  exhausted: z.enum(EXHAUSTED_REASONS).optional(),
  /** A manual replay of a dead letter: which (SPEC §12.3). */
  dead_letter_id: IdSchema.optional(),
  /** `trigger: "backfill"`: the backfill that fired it (SPEC §18.1). */
  backfill_id: IdSchema.optional(),
  result: RunResultSchema,
  /**
   * SPEC §16.1: how the work it started ended, from check-ins (omitted when its schedule expects no
   * completion and no check-in arrived): `pending`, `running`, `succeeded`, `failed` or `timed_out`.
   */
  outcome: z.enum(RUN_OUTCOMES).optional(),
  /** `/start`, else the delivery (UTC). */
  started_at: InstantSchema.optional(),
  /** When the outcome became terminal (UTC). */
  finished_at: InstantSchema.optional(),
  /** `finished_at − started_at`, in ms. */
  duration_ms: z.int().min(0).optional(),
  /** The exit code a check-in sent (0–255). */
  exit_code: z.int().min(0).max(255).optional(),
  /** The first 1 KiB of the check-in's body. */
  outcome_message: z.string().optional(),
});
export type Run = z.infer<typeof RunSchema>;

/**
 * An exhausted occurrence in its scheduler's dead-letter list (SPEC §12.3): the occurrence, how many
 * attempts were made and why they stopped, the last attempt's status and result, the target as
 * fired, and the last replay when there was one.
 */
export const DeadLetterSchema = withTarget({
  id: IdSchema,
  schedule_id: IdSchema,
  /** The schedule's alias when it was exhausted (its id when it had none); it may since be deleted. */
  schedule_label: z.string(),
  scheduled_for: InstantSchema,
  attempts: z.int().min(1),
  exhausted: z.enum(['maximum_retry_attempts', 'maximum_event_age']),
  last_run_id: IdSchema,
  status: z.enum(RUN_STATUSES),
  result: RunResultSchema,
  dead_letter_arn: z.string().optional(),
  /**
   * The send to `dead_letter_arn` (SPEC §12.3), when there is one: `pending` (not yet, or to be tried
   * again), `sent` (with SQS's message id), `failed` (AWS's error code and message; no more tries).
   */
  queue_send: z
    .strictObject({ status: z.enum(['pending', 'sent', 'failed']), attempts: z.int().min(0), message_id: z.string().optional(), error: z.string().optional(), message: z.string().optional() })
    .optional(),
  created_at: InstantSchema,
  replay: z.strictObject({ run_id: IdSchema, status: z.enum(RUN_STATUSES), at: InstantSchema }).optional(),
});
export type DeadLetter = z.infer<typeof DeadLetterSchema>;

/** Command parameter shapes (SPEC §3.1). */
export const ScheduleIdParams = z.object({ schedule_id: z.string().min(1).max(200) }).strict();
export const ListSchedulesParams = z
  .object({
    start_schedule_id: z.string().max(200).nullable().optional(),
    state: z.enum(SCHEDULE_STATES).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export const ListExecutionsParams = z
  .object({
    schedule_id: z.string().min(1).max(200),
    start_execution_id: z.string().max(200).nullable().optional(),
    include_schedule: z.boolean().optional(),
    status: z.enum(RUN_STATUSES).optional(),
  })
  .strict();
export const SetAllEnabledParams = z.object({ enabled: z.boolean() }).strict();
/** `set_metrics_per_schedule` (SPEC §16.3): the scheduler's opt-in to the per-schedule series of /metrics. */
export const SetMetricsPerScheduleParams = z.object({ enabled: z.boolean() }).strict();
/**
 * `run_schedule` (SPEC §3.1, §16.2): `overlap: "skip"` records the manual run `skipped` instead of
 * delivering it while a run of the schedule is in progress; `allow_all` (the default) always fires.
 */
export const RunScheduleParams = ScheduleIdParams.extend({ overlap: z.enum(['allow_all', 'skip']).optional() }).strict();
export const ListDeadLettersParams = z.strictObject({ start_dead_letter_id: z.string().max(200).nullable().optional() });
export const DeadLetterIdParams = z.strictObject({ dead_letter_id: z.string().min(1).max(200) });

/**
 * `dry_run: true` on `create_schedule` and `update_schedule` (docs/decisions.md): every check of a real
 * save runs (schema, clock rules, limits, alias uniqueness, the SPEC §6.3 target checks with the
 * caller's standing) and nothing is written; the answer is `ScheduleDryRunAnswer`.
 */
export const DryRunParams = z.strictObject({ dry_run: z.boolean().optional() });
/** The longest `client_token` (SPEC §15). */
export const CLIENT_TOKEN_MAX = 64;
/** How long a `client_token` answers its first result (SPEC §15: 24 h), in ms. */
export const SCHEDULE_CLIENT_TOKEN_TTL_MS = 24 * 3_600_000;
/**
 * `client_token` on `create_schedule` (SPEC §15): the same token with the same body within 24 h answers
 * the first result and creates nothing; with another body it is `409 client_token_reused`.
 */
export const ClientTokenParams = z.strictObject({ client_token: z.string().min(1).max(CLIENT_TOKEN_MAX).optional() });
/**
 * `expected_version` on `update_schedule` and `delete_schedule` (SPEC §15): the schedule's `version` as
 * the caller last read it; another is `409 version_conflict` and nothing is written.
 */
export const ExpectedVersionParams = z.strictObject({ expected_version: z.int().min(1).optional() });
/**
 * `create_schedule`'s body as the OpenAPI document shows it: the schedule fields, `dry_run`,
 * `client_token`, and the target of any type. The save validates with `ScheduleCreateInput`, where
 * `invocation_target_type` picks the one schema `invocation_target` must match (and the cross-field rules apply).
 */
export const CreateScheduleParams = ScheduleTimingFieldsSchema.extend({
  invocation_target_type: z.enum(INVOCATION_TARGET_TYPES).optional(),
  invocation_target: AnyTargetSchema,
  ...DryRunParams.shape,
  ...ClientTokenParams.shape,
});
/** `update_schedule`'s body: `schedule_id` (id or alias), any subset of the writable fields, `dry_run` and `expected_version`. */
export const UpdateScheduleParams = z
  .strictObject({ ...ScheduleUpdateShape, schedule_id: ScheduleIdParams.shape.schedule_id, ...DryRunParams.shape, ...ExpectedVersionParams.shape })
  .superRefine(checkPatchTarget);
/** `delete_schedule`'s body: `schedule_id` (id or alias) and `expected_version`. */
export const DeleteScheduleParams = ScheduleIdParams.extend(ExpectedVersionParams.shape);

/** What an activity entry records (SPEC §15). */
export const ACTIVITY_ACTIONS = [
  'create',
  'update',
  'enable',
  'disable',
  'pause_all',
  'resume_all',
  'run_now',
  'delete',
  'replay_dead_letter',
  'dismiss_dead_letter',
  /** The worker disabled the schedule after `pause_after_failures` failed occurrences (SPEC §12.5). */
  'auto_pause',
  /** The scheduler's `metrics_per_schedule` changed (SPEC §16.3). */
  'metrics_per_schedule',
  /** A backfill was started (SPEC §18.1). */
  'backfill',
  /** A running backfill was cancelled (SPEC §18.1). */
  'cancel_backfill',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
/** Who made a change (SPEC §15): a user, an org key, an access key (SPEC §14, with its owner), or the system. */
export const ActivityActorSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('user'), id: z.string() }),
  z.strictObject({ type: z.literal('org'), id: z.string() }),
  z.strictObject({ type: z.literal('access_key'), id: z.string(), owner: AuthEntitySchema }),
  z.strictObject({ type: z.literal('system') }),
]);
export type ActivityActor = z.infer<typeof ActivityActorSchema>;
/** One activity entry as `list_activity` answers it (SPEC §15). */
export const ActivityEntrySchema = z.strictObject({
  id: IdSchema,
  /** The schedule changed; omitted for a scheduler-wide change (`pause_all`, `resume_all`). */
  schedule_id: IdSchema.optional(),
  /** The schedule's name when the change was made (it may be renamed or deleted since). */
  schedule_name: z.string().optional(),
  action: z.enum(ACTIVITY_ACTIONS),
  by: ActivityActorSchema,
  at: InstantSchema,
  /** `update`, `enable`, `disable`: the fields whose values changed. */
  fields: z.array(z.string()).optional(),
  /** `pause_all`, `resume_all`: how many schedules changed. */
  count: z.int().min(0).optional(),
  /** `run_now`, `replay_dead_letter`: the manual run recorded. */
  execution_id: IdSchema.optional(),
  /** `replay_dead_letter`, `dismiss_dead_letter`: the dead letter. */
  dead_letter_id: IdSchema.optional(),
  /** `backfill`, `cancel_backfill`: the backfill (its occurrences in `count`). */
  backfill_id: IdSchema.optional(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;
/** `list_activity` (SPEC §15): the scheduler's entries, or one schedule's (`schedule_id`: id or alias). */
export const ListActivityParams = z.strictObject({
  schedule_id: z.string().min(1).max(200).optional(),
  start_activity_id: z.string().max(200).nullable().optional(),
});
/** `list_activity`: 20 a page, newest first; `last_activity_id` null on the last page. */
export const ActivityListPage = z.strictObject({ activity: z.array(ActivityEntrySchema), last_activity_id: IdSchema.nullable() });

/** SPEC §18.1 backfill bounds: most occurrences one backfill selects, instants a dry run lists, `max_concurrency`. */
export const BACKFILL_MAX_OCCURRENCES = 10_000;
export const BACKFILL_DRY_RUN_INSTANTS = 20;
export const BACKFILL_MAX_CONCURRENCY = [1, 100] as const;
/** `missing` (default): no run of any trigger; `failed`: those and the ones whose last attempt or outcome failed; `all`. */
export const BACKFILL_REPROCESS = ['missing', 'failed', 'all'] as const;
export const BACKFILL_ORDERS = ['oldest_first', 'newest_first'] as const;
export const BACKFILL_STATES = ['running', 'completed', 'cancelled'] as const;
export type BackfillState = (typeof BACKFILL_STATES)[number];

/** A backfill bound as sent; read by the domain (`resolveBackfillBound`): an ISO instant, or a wall time in the schedule's timezone. */
const BackfillBoundText = z.string().min(1).max(64);
/**
 * `backfill_schedule` (SPEC §18.1): fire the schedule's occurrences with `from < scheduled_for ≤ to`
 * (`to` at most now) inside its start and end dates.
 */
export const BackfillScheduleParams = ScheduleIdParams.extend({
  /** An ISO instant, or a wall time (`YYYY-MM-DDTHH:mm[:ss]`) in the schedule's timezone (SPEC §7.1's rule; decision 352). */
  from: BackfillBoundText,
  to: BackfillBoundText,
  reprocess: z.enum(BACKFILL_REPROCESS).optional(),
  max_concurrency: z.int().min(BACKFILL_MAX_CONCURRENCY[0]).max(BACKFILL_MAX_CONCURRENCY[1]).optional(),
  order: z.enum(BACKFILL_ORDERS).optional(),
  dry_run: z.boolean().optional(),
  /** Idempotency (decision 353): a retry with the same token and request within 24 h answers the first backfill. */
  client_token: z.string().min(1).max(CLIENT_TOKEN_MAX).optional(),
}).strict();
/** A backfill as `backfill_schedule`, `get_backfill`, `list_backfills` and `cancel_backfill` answer it (SPEC §18.1). */
export const BackfillSchema = z.strictObject({
  id: IdSchema,
  schedule_id: IdSchema,
  /** Exclusive lower bound (UTC). */
  from: InstantSchema,
  /** Inclusive upper bound (UTC). */
  to: InstantSchema,
  reprocess: z.enum(BACKFILL_REPROCESS),
  max_concurrency: z.int().min(BACKFILL_MAX_CONCURRENCY[0]).max(BACKFILL_MAX_CONCURRENCY[1]),
  order: z.enum(BACKFILL_ORDERS),
  state: z.enum(BACKFILL_STATES),
  /** Occurrences it selected. */
  total: z.int().min(0),
  /** Occurrences fired so far (claimed by a worker). */
  fired: z.int().min(0),
  /** Fired occurrences that ended: their last attempt succeeded (and its outcome did not fail) … */
  succeeded: z.int().min(0),
  /** … or failed (no retry left, or the outcome `failed` / `timed_out`). */
  failed: z.int().min(0),
  /** Fired and not ended: delivering, waiting for a retry, or (a schedule with `completion`) in progress. */
  in_flight: z.int().min(0),
  created_by: z.strictObject({ type: z.enum(['user', 'org', 'access_key']), id: z.string() }),
  created_at: InstantSchema,
  /** When it completed or was cancelled. */
  finished_at: InstantSchema.optional(),
});
export type Backfill = z.infer<typeof BackfillSchema>;
/** `backfill_schedule` with `dry_run: true`: how many occurrences it would fire and the first 20 of them, in firing order. Nothing written. */
export const BackfillDryRunSchema = z.strictObject({ dry_run: z.literal(true), total: z.int().min(0), first: z.array(InstantSchema).max(BACKFILL_DRY_RUN_INSTANTS) });
export type BackfillDryRun = z.infer<typeof BackfillDryRunSchema>;
/** Resume with catch-up's dry run (SPEC §18.2, web app only): the paused interval (`from` excluded, `to` included) and what its backfill would fire. */
export interface ResumeDryRun extends BackfillDryRun {
  /** `paused.at`, or null when the schedule records no pause (nothing is backfilled). */
  from: string | null;
  to: string;
}
export const BackfillAnswer = z.strictObject({ backfill: BackfillSchema });
export const BackfillScheduleAnswer = z.union([BackfillAnswer, BackfillDryRunSchema]);
export const BackfillIdParams = z.strictObject({ backfill_id: z.string().min(1).max(200) });
/** `list_backfills`: the scheduler's backfills, or one schedule's (`schedule_id`: id or alias). */
export const ListBackfillsParams = z.strictObject({
  schedule_id: z.string().min(1).max(200).optional(),
  start_backfill_id: z.string().max(200).nullable().optional(),
});
/** `list_backfills`: 20 a page, newest first; `last_backfill_id` null on the last page. */
export const BackfillListPage = z.strictObject({ backfills: z.array(BackfillSchema), last_backfill_id: IdSchema.nullable() });

/** `{schedule}`: the answer of `create_schedule`, `get_schedule` and `update_schedule`. */
export const ScheduleAnswer = z.strictObject({ schedule: ScheduleSchema });
/**
 * A target session `deploy` must create before the save can pass: the target's session alias does not
 * exist yet in a draft revision the caller may write, and everything else checks out.
 */
export const MissingSessionSchema = z.strictObject({ revision_id: IdSchema, alias: z.string() });
export type MissingSession = z.infer<typeof MissingSessionSchema>;
/**
 * The answer of a dry run: the schedule as the save would store it (a create's `id` is a fresh id the
 * real create does not reuse; `created_at`/`updated_at` are the request's instant). With
 * `missing_session`, the save passes once that session exists and is refused until then.
 */
export const ScheduleDryRunAnswer = z.strictObject({ dry_run: z.literal(true), schedule: ScheduleSchema, missing_session: MissingSessionSchema.optional() });
export type ScheduleDryRunAnswer = z.infer<typeof ScheduleDryRunAnswer>;
export const ScheduleSaveAnswer = z.union([ScheduleAnswer, ScheduleDryRunAnswer]);
/** `list_schedules` (SPEC §3.1): 50 a page by `created_at` then `id`; `last_schedule_id` null on the last page. */
export const ScheduleListPage = z.strictObject({ schedules: z.array(ScheduleSchema), last_schedule_id: IdSchema.nullable() });
/** `list_executions` (SPEC §3.1): 10 a page, newest first, with the schedule when `include_schedule`. */
export const RunListPage = z.strictObject({ executions: z.array(RunSchema), last_execution_id: IdSchema.nullable(), schedule: ScheduleSchema.optional() });
/** `run_schedule` (SPEC §3.1): the manual run it recorded. */
export const RunAnswer = z.strictObject({ execution: RunSchema });
/** `set_all_enabled` (SPEC §3.1): how many schedules changed. */
export const SetAllEnabledAnswer = z.strictObject({ updated: z.int().min(0) });
/** `set_metrics_per_schedule` (SPEC §16.3): the setting now held. */
export const SetMetricsPerScheduleAnswer = z.strictObject({ metrics_per_schedule: z.boolean() });
/** `list_dead_letters` (SPEC §12.3): 10 a page, newest first; `last_dead_letter_id` null on the last page. */
export const DeadLetterListPage = z.strictObject({ dead_letters: z.array(DeadLetterSchema), last_dead_letter_id: IdSchema.nullable() });
/** `replay_dead_letter` (SPEC §12.3): the manual run it recorded and the dead letter with its replay. */
export const ReplayAnswer = z.strictObject({ execution: RunSchema, dead_letter: DeadLetterSchema });

/** `get_signing_secret` and `rotate_signing_secret` take no parameters (SPEC §13.1). */
export const SigningSecretParams = z.strictObject({});

/**
 * A scheduler's webhook signing secret as `get_signing_secret` and `rotate_signing_secret` answer it
 * (SPEC §13.1): the secret itself only in the one answer that shows it, else its hint.
 */
export const SigningSecretInfoSchema = z.strictObject({
  /** The secret itself (`whsec_…`): present only in the one answer that shows it. */
  secret: z.string().optional(),
  /** `whsec_` and its first 4 characters, to tell secrets apart. */
  hint: z.string(),
  created_at: InstantSchema,
  /** When it was shown; absent while never shown. */
  shown_at: InstantSchema.optional(),
  /** Retired secrets that still sign (each until `signs_until` = `retired_at` + 24 h), newest first. */
  previous: z.array(z.strictObject({ hint: z.string(), created_at: InstantSchema, retired_at: InstantSchema, signs_until: InstantSchema })),
});
export type SigningSecretInfo = z.infer<typeof SigningSecretInfoSchema>;
/** `{signing_secret}`: the answer of `get_signing_secret` and `rotate_signing_secret`. */
export const SigningSecretAnswer = z.strictObject({ signing_secret: SigningSecretInfoSchema });

/**
 * The `"engine": "scheduler_blobhub"` commands (SPEC §3.1): parameters and answer of each. The command
 * table in `commands.ts` is typed against it, so a command cannot exist without its contract.
 */
export * from './alerts/contract';

export const SCHEDULER_COMMANDS = {
  create_schedule: { params: CreateScheduleParams, answer: ScheduleSaveAnswer, summary: 'Create a schedule (SPEC §5); `dry_run: true` checks it and writes nothing.' },
  get_schedule: { params: ScheduleIdParams, answer: ScheduleAnswer, summary: 'One schedule, by id or alias.' },
  update_schedule: { params: UpdateScheduleParams, answer: ScheduleSaveAnswer, summary: 'Change the fields sent; `dry_run: true` checks the result and writes nothing.' },
  delete_schedule: { params: DeleteScheduleParams, answer: EmptyAnswer, summary: 'Delete a schedule and its history, in any state; a stale `expected_version` is 409 version_conflict.' },
  list_schedules: { params: ListSchedulesParams, answer: ScheduleListPage, summary: 'Schedules, 50 a page, by created_at then id.' },
  list_executions: { params: ListExecutionsParams, answer: RunListPage, summary: 'A schedule\'s runs (by id only), 10 a page, newest first.' },
  run_schedule: { params: RunScheduleParams, answer: RunAnswer, summary: 'Fire now, recorded with trigger "manual".' },
  set_all_enabled: { params: SetAllEnabledParams, answer: SetAllEnabledAnswer, summary: 'Pause every enabled active schedule of the scheduler (false), or resume those a pause all disabled (true).' },
  set_metrics_per_schedule: { params: SetMetricsPerScheduleParams, answer: SetMetricsPerScheduleAnswer, summary: 'Admins: name each schedule in /metrics (scheduler_schedule_* series) or stop (SPEC §16.3).' },
  list_dead_letters: { params: ListDeadLettersParams, answer: DeadLetterListPage, summary: 'Exhausted occurrences of the scheduler, 10 a page, newest first (SPEC §12.3).' },
  replay_dead_letter: { params: DeadLetterIdParams, answer: ReplayAnswer, summary: 'Fire a dead letter\'s occurrence again now, as a manual run linked to it.' },
  dismiss_dead_letter: { params: DeadLetterIdParams, answer: EmptyAnswer, summary: 'Remove a dead letter from the list.' },
  list_activity: { params: ListActivityParams, answer: ActivityListPage, summary: 'Who changed what (SPEC §15): the scheduler\'s activity, or one schedule\'s, 20 a page, newest first.' },
  backfill_schedule: { params: BackfillScheduleParams, answer: BackfillScheduleAnswer, summary: 'Fire a schedule\'s past occurrences in (from, to] (SPEC §18.1); `dry_run: true` answers the count and the first 20 instants and writes nothing.' },
  list_backfills: { params: ListBackfillsParams, answer: BackfillListPage, summary: 'Backfills of the scheduler, or of one schedule, 20 a page, newest first, with their progress.' },
  get_backfill: { params: BackfillIdParams, answer: BackfillAnswer, summary: 'One backfill and its progress: total, fired, succeeded, failed, in flight, state.' },
  cancel_backfill: { params: BackfillIdParams, answer: BackfillAnswer, summary: 'Stop a running backfill: nothing more of it fires (what is in flight ends as it would).' },
  get_signing_secret: { params: SigningSecretParams, answer: SigningSecretAnswer, summary: 'Admins: the scheduler\'s webhook signing secret, in clear only the first time it is asked for (SPEC §13.1).' },
  rotate_signing_secret: { params: SigningSecretParams, answer: SigningSecretAnswer, summary: 'Admins: a new webhook signing secret, shown in this answer; the previous one signs 24 h more (SPEC §13.1).' },
  list_alert_rules: { params: ListAlertRulesParams, answer: AlertRuleListAnswer, summary: 'The alert rules of the scheduler (SPEC §17); with `schedule_id`, those that apply to that schedule.' },
  create_alert_rule: { params: CreateAlertRuleParams, answer: AlertRuleAnswer, summary: 'An alert rule on the scheduler, or on one schedule (`schedule_id`): events and channels (SPEC §17). `409 duplicate_alert_rule` when an identical rule exists.' },
  update_alert_rule: { params: UpdateAlertRuleParams, answer: AlertRuleAnswer, summary: 'Change the fields sent of an alert rule (`409 duplicate_alert_rule` when that makes it identical to another).' },
  delete_alert_rule: { params: AlertRuleIdParams, answer: EmptyAnswer, summary: 'Delete an alert rule; its log entries stay.' },
  list_alerts: { params: ListAlertsParams, answer: AlertListPage, summary: 'The alert log (SPEC §17): every notification of the scheduler with its channel\'s answer, 20 a page, newest first.' },
} as const satisfies Record<string, CommandContract>;
export type SchedulerCommandName = keyof typeof SCHEDULER_COMMANDS;

/** The parse → SPEC error rule (`lib/errors`), re-exported for the CLI manifest, which may import only contracts. */
export { firstIssueError, issuePath, type IssueError } from '../errors';

/**
 * An attempt waiting for its turn (SPEC §12.2), as the grid ("retrying") and the history ("next attempt
 * at") show it: attempt `attempt` of the occurrence `scheduled_for`, due at `due_at` (ISO UTC). Declared
 * here, type only, so client components share the shape (`pendingRetries` answers it).
 */
export interface PendingRetry {
  scheduled_for: string;
  attempt: number;
  due_at: string;
  /**
   * Present (true) on a `buffer_one` occurrence waiting for the run in progress (SPEC §16.2): no
   * retry; it is delivered when that run ends (until then `due_at` is 9999-12-31, meaning never).
   */
  waiting?: true;
}

/**
 * How a schedule names itself in its fires' context attributes (SPEC §13.4, §14), for the form's
 * payload preview: the ARN a facade stored with it (`scheduleArn`), else the ARN without the schedule's
 * name (`arnPrefix`, ending in `/`: the name is its alias, else its id), and its id (null for a new
 * schedule). Declared here, type only, for the form.
 */
export interface ContextPreviewFacts {
  scheduleArn: string | null;
  arnPrefix: string | null;
  scheduleId: string | null;
}

/**
 * What the New Schedule form offers in its pickers (`targetOptions`, SPEC §10): the catalog the actor
 * can read. Free entry stays allowed; saving decides (SPEC §6.3). Declared here, type only, so the
 * form (a client component) shares the shape without importing server code.
 */
export interface TargetOptions {
  /** Orgs whose blobs the actor can see at least partly. */
  orgs: { id: string; alias: string | null; name: string }[];
  /** Workflow blobs the actor can read. `role` tells whether it can be a target (`write` needed, SPEC §6.3). */
  blobs: {
    id: string;
    alias: string | null;
    name: string;
    orgId: string;
    orgAlias: string | null;
    role: Role;
    defaultRevisionId: string | null;
    revisions: { id: string; state: string; isDefault: boolean }[];
  }[];
  /** Sessions of the draft revisions of those blobs (where executions can run). */
  sessions: { revisionId: string; id: string; alias: string | null; state: string }[];
  /** Definitions of every revision of those blobs. */
  definitions: { revisionId: string; id: string; alias: string | null; name: string }[];
  /**
   * SPEC §13.5: how the scheduler's org delivers to AWS (`role`: each target's `role_arn` is assumed;
   * `worker`: the worker's own credentials), for the AWS target's hints; absent when not asked for.
   */
  awsCredentials?: 'role' | 'worker';
}

/**
 * Why a pending next fire is shown as overdue (lib/schedules/operations/worker-heartbeats.ts `overdueReason`):
 * - `no_worker`: no worker is alive, so nothing fires it until one starts;
 * - `behind`: workers are alive but have not fired it within the grace period.
 */
export const OVERDUE_REASONS = ['no_worker', 'behind'] as const;
export type OverdueReason = (typeof OVERDUE_REASONS)[number];
