/**
 * The schedule form's own values (strings as the inputs hold them), its field names and labels, and
 * the values a form starts from: a stored schedule (edit) or the defaults of a new one (create).
 * `request-body.ts` turns these values into the request body of SPEC §5.1.
 */
import {
  CATCH_UP_MAX_BURST,
  CATCH_UP_WINDOW_SECONDS,
  DEFAULT_TARGET_TYPE,
  EXPECT_WITHIN_SECONDS,
  FLEXIBLE_WINDOW_MINUTES,
  PAUSE_AFTER_FAILURES,
  RETRY_BOUNDS,
  type AfterCompletionAction,
  type InvocationTargetType,
  type OverlapPolicy,
  type Repeat,
  type Schedule,
  type TargetOptions,
} from '@/lib/schedules/contract';
import { TARGET_LABELS, TARGET_NUMBER_BOUNDS, targetStartValues, targetValuesOf, type TargetFormValues } from '../targets';

/** The form's own values: strings as the inputs hold them. `toRequestBody` makes the API body. */
export interface ScheduleFormValues {
  alias: string;
  description: string;
  repeat: Repeat;
  cron_expression: string;
  /** `<value> <unit>` (SPEC §12.1). */
  rate_expression: string;
  /** `<input type="datetime-local">`: `YYYY-MM-DDTHH:mm[:ss]`, wall time in `timezone`. */
  invocation_time: string;
  timezone: string;
  /** `<input type="datetime-local">` read as UTC. */
  start_date: string;
  end_date: string;
  enabled: boolean;
  /** SPEC §12.5 `paused.note`: sent only while the schedule is (or becomes) disabled. */
  paused: { note: string };
  /** SPEC §12.2. `mode` is the form's own: `off` sends no policy (one attempt), `retry` sends both numbers. */
  retry_policy: { mode: 'off' | 'retry'; maximum_retry_attempts: string; maximum_event_age_seconds: string };
  /** SPEC §12.3: blank for none. */
  dead_letter: { arn: string };
  /** SPEC §12.4. */
  flexible_time_window: { mode: 'off' | 'flexible'; maximum_window_minutes: string };
  /** SPEC §12.5. */
  action_after_completion: AfterCompletionAction;
  /** SPEC §12.5: blank for never. */
  pause_after_failures: string;
  /** SPEC §16.1: blank for none (runs expect no outcome). */
  completion: { expect_within_seconds: string };
  /** SPEC §16.2: sent only with a completion (without one nothing is ever in progress). */
  overlap_policy: OverlapPolicy;
  /** SPEC §18.2. `mode` `default` is the form's own: the scheduler-wide window, `all`, no cap (nothing sent). */
  catch_up: { mode: 'default' | 'all' | 'latest' | 'none'; window_seconds: string; max_burst: string };
  /** SPEC §6, §13: which of the target's fields below are sent. */
  invocation_target_type: InvocationTargetType;
  /**
   * Every target type's fields side by side, each at its request path (`invocation_target.url`), so
   * switching the type keeps what was typed; `toRequestBody` sends the chosen type's only. Each type's
   * are its form part's (components/targets/form.ts).
   */
  invocation_target: TargetFormValues;
}

/** Each input's label, by its field name: the dotted path of the request body it fills. */
export const LABELS = {
  alias: 'Alias',
  description: 'Description',
  repeat: 'Occurrence',
  cron_expression: 'Cron expression',
  rate_expression: 'Rate',
  invocation_time: 'Invocation time',
  timezone: 'Timezone',
  start_date: 'Start date (UTC)',
  end_date: 'End date (UTC)',
  enabled: 'Enabled',
  'paused.note': 'Pause note',
  'retry_policy.mode': 'Retries',
  'retry_policy.maximum_retry_attempts': 'Maximum retry attempts',
  'retry_policy.maximum_event_age_seconds': 'Maximum event age (seconds)',
  'dead_letter.arn': 'Dead-letter queue ARN',
  'flexible_time_window.mode': 'Flexible time window',
  'flexible_time_window.maximum_window_minutes': 'Window (minutes)',
  action_after_completion: 'After completion',
  pause_after_failures: 'Pause after consecutive failed occurrences',
  'completion.expect_within_seconds': 'Expect completion within (seconds)',
  overlap_policy: 'While a run is in progress',
  'catch_up.mode': 'After the worker was down or behind',
  'catch_up.window_seconds': 'Catch-up window (seconds)',
  'catch_up.max_burst': 'At most (missed occurrences fired)',
  invocation_target_type: 'Target type',
  ...TARGET_LABELS,
} as const;

/** A form field: the dotted request path its input fills (`invocation_target.target.session`). */
export type FieldName = keyof typeof LABELS;
export const FIELDS = Object.keys(LABELS) as FieldName[];

/**
 * The whole-number fields and their inclusive bounds, taken from the contract (never re-declared):
 * the inputs' min/max, their hints and the form's "must be a whole number from … to …" all read these.
 */
export const NUMBER_BOUNDS = {
  'retry_policy.maximum_retry_attempts': RETRY_BOUNDS.maximumRetryAttempts,
  'retry_policy.maximum_event_age_seconds': RETRY_BOUNDS.maximumEventAgeSeconds,
  'flexible_time_window.maximum_window_minutes': FLEXIBLE_WINDOW_MINUTES,
  pause_after_failures: PAUSE_AFTER_FAILURES,
  'completion.expect_within_seconds': EXPECT_WITHIN_SECONDS,
  'catch_up.window_seconds': CATCH_UP_WINDOW_SECONDS,
  'catch_up.max_burst': CATCH_UP_MAX_BURST,
  ...TARGET_NUMBER_BOUNDS,
} as const satisfies Partial<Record<FieldName, readonly [number, number]>>;
export type NumberField = keyof typeof NUMBER_BOUNDS;

/** What a new retry policy, window or pause threshold starts at once switched on. */
const DELIVERY_DEFAULTS = { maximumRetryAttempts: '3', maximumEventAgeSeconds: '3600', windowMinutes: '15' } as const;

/** `YYYY-MM-DDTHH:mm[:ss[.SSS]]` → `YYYY-MM-DDTHH:mm:ss` (the datetime input drops `:00` seconds). */
export function toWallTime(v: string): string {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(s)) return `${s}:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+$/.test(s)) return s.slice(0, 19);
  return s;
}

/** An ISO UTC instant → the `datetime-local` value that shows it in UTC. */
function isoToUtcInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19);
}

/** A `datetime-local` value read as UTC → its ISO instant, or null when blank or not a date. */
export function utcOrNull(v: string | undefined): string | null {
  if (!v || !v.trim()) return null;
  const d = new Date(`${toWallTime(v)}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The stored schedule as form values (edit mode). */
export function valuesFromSchedule(s: Schedule): ScheduleFormValues {
  return {
    alias: s.alias ?? '',
    description: s.description ?? '',
    repeat: s.repeat,
    cron_expression: s.cron_expression ?? '',
    rate_expression: s.rate_expression ?? '',
    invocation_time: s.invocation_time ?? '',
    timezone: s.timezone,
    start_date: isoToUtcInput(s.start_date),
    end_date: isoToUtcInput(s.end_date),
    enabled: s.enabled,
    paused: { note: s.paused?.note ?? '' },
    retry_policy: s.retry_policy
      ? { mode: 'retry', maximum_retry_attempts: String(s.retry_policy.maximum_retry_attempts), maximum_event_age_seconds: String(s.retry_policy.maximum_event_age_seconds) }
      : { mode: 'off', maximum_retry_attempts: DELIVERY_DEFAULTS.maximumRetryAttempts, maximum_event_age_seconds: DELIVERY_DEFAULTS.maximumEventAgeSeconds },
    dead_letter: { arn: s.dead_letter?.arn ?? '' },
    flexible_time_window:
      s.flexible_time_window?.mode === 'flexible'
        ? { mode: 'flexible', maximum_window_minutes: String(s.flexible_time_window.maximum_window_minutes) }
        : { mode: 'off', maximum_window_minutes: DELIVERY_DEFAULTS.windowMinutes },
    action_after_completion: s.action_after_completion ?? 'none',
    pause_after_failures: s.pause_after_failures !== undefined ? String(s.pause_after_failures) : '',
    completion: { expect_within_seconds: s.completion ? String(s.completion.expect_within_seconds) : '' },
    overlap_policy: s.overlap_policy ?? 'allow_all',
    catch_up: s.catch_up
      ? { mode: s.catch_up.mode, window_seconds: String(s.catch_up.window_seconds), max_burst: s.catch_up.max_burst !== undefined ? String(s.catch_up.max_burst) : '' }
      : { mode: 'default', window_seconds: '3600', max_burst: '' },
    invocation_target_type: s.invocation_target_type,
    invocation_target: targetValuesOf(s),
  };
}

/** Defaults of a new schedule: each target type's start values (the workflow target: the seeded one when the catalog has it). */
export function defaultValues(options: TargetOptions): ScheduleFormValues {
  return {
    alias: '',
    description: '',
    repeat: 'recurring_cron',
    cron_expression: '0 9 ? * MON-FRI *',
    rate_expression: '5 minutes',
    invocation_time: '',
    timezone: 'UTC',
    start_date: '',
    end_date: '',
    enabled: true,
    paused: { note: '' },
    retry_policy: { mode: 'off', maximum_retry_attempts: DELIVERY_DEFAULTS.maximumRetryAttempts, maximum_event_age_seconds: DELIVERY_DEFAULTS.maximumEventAgeSeconds },
    dead_letter: { arn: '' },
    flexible_time_window: { mode: 'off', maximum_window_minutes: DELIVERY_DEFAULTS.windowMinutes },
    action_after_completion: 'none',
    pause_after_failures: '',
    completion: { expect_within_seconds: '' },
    overlap_policy: 'allow_all',
    catch_up: { mode: 'default', window_seconds: '3600', max_burst: '' },
    invocation_target_type: DEFAULT_TARGET_TYPE,
    invocation_target: targetStartValues(options),
  };
}
