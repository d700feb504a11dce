/**
 * The schedule contract of SPEC §5–§6: one zod schema per shape, shared by the API, the server
 * actions, the New Schedule form and the CLI manifest (STYLE §2.3). Universal: no I/O, no clock.
 *
 * Structural problems (wrong type, unknown key, missing field) are plain zod issues and become
 * `400 invalid_request_body`. Rules with their own SPEC code are custom issues carrying
 * `params.code`; `firstIssueError` picks the structural ones first, then the coded ones.
 */
import { z } from 'zod';
import { CronExpressionError, isValidTimezone, LocalTimeError, parseCronExpression, resolveLocalTime } from '../cron';
import { aliasProblem, isIdShape } from '../ids';

/** Id-or-alias helpers, re-exported so clients that may import only the contract (the CLI) share them. */
export { isIdShape, normalizeRef } from '../ids';

/** Schedule cadences (SPEC §5.1). */
export const REPEATS = ['one_time', 'recurring_cron'] as const;
export type Repeat = (typeof REPEATS)[number];

/** Schedule states (SPEC §5.3): `active` while it can still fire, `completed` once it can fire no more. */
export const SCHEDULE_STATES = ['active', 'completed'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

/**
 * Run statuses (SPEC §8.1).
 * - `success`: the workflow execution was created.
 * - `limit_exceeded`: a limit refused the execution; the schedule keeps firing.
 * - `invocation_error`: the target or workflow did not resolve, access was gone, or creation failed.
 */
export const RUN_STATUSES = ['success', 'limit_exceeded', 'invocation_error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** `schedule` (an occurrence) or `manual` (run now, keyed apart from occurrences). */
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** `result.error` names of an `invocation_error` run (SPEC §8.1). */
export const INVOCATION_ERRORS = [
  'target_not_found',
  'default_revision_committed',
  'session_not_found',
  'session_not_open',
  'workflow_not_found',
  'access_denied',
  'invocation_failed',
  'internal_error',
  /** The schedule's target is an `http` or `aws` target, which this build stores but does not deliver (SPEC §14). */
  'unsupported_target',
] as const;
export type InvocationError = (typeof INVOCATION_ERRORS)[number];

/** Codes a custom issue may carry (the rest of SPEC §5.2 is decided with the database or the clock). */
type CodedIssue =
  | 'invalid_alias'
  | 'invalid_cron_expression'
  | 'invalid_timezone'
  | 'invalid_invocation_time'
  | 'invalid_date_window'
  | 'invalid_invocation_target'
  | 'invalid_workflow_reference';

function coded(ctx: z.RefinementCtx, code: CodedIssue, message: string, path: (string | number)[] = []) {
  ctx.addIssue({ code: 'custom', message, path, params: { code } });
}

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const INPUT_DATA_MAX_BYTES = 64 * 1024;

/** A non-blank string of at most 64 chars (every field of `target` and `workflow`, SPEC §6). */
const RefString = z
  .string()
  .max(64, 'must be at most 64 characters')
  .refine((s) => s.trim().length > 0, 'must not be blank');

/** ISO 8601 instant with `Z` or an offset; normalized to UTC by `toInstant`. */
const IsoInstant = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), {
  message: 'must be an ISO 8601 instant such as 2026-01-01T00:00:00Z',
});

/** Where a fire runs (SPEC §6.1). `revision` is a revision id (pinned) or `default` (following). */
export const TargetRefSchema = z
  .object({ org: RefString.optional(), blob: RefString, revision: RefString, session: RefString })
  .strict();
export type TargetRef = z.infer<typeof TargetRefSchema>;

/** What a fire runs (SPEC §6.2): a definition, bare or qualified by blob (and org, revision). */
export const WorkflowRefSchema = z
  .object({ org: RefString.optional(), blob: RefString.optional(), revision: RefString.optional(), definition: RefString })
  .strict();
export type WorkflowRef = z.infer<typeof WorkflowRefSchema>;

export const InputDataSchema = z
  .array(
    z
      .object({ alias: z.string().min(1).max(64), value: z.unknown().refine((v) => v !== undefined, 'value is required') })
      .strict(),
  )
  .max(1000)
  .refine((arr) => new TextEncoder().encode(JSON.stringify(arr)).length <= INPUT_DATA_MAX_BYTES, {
    message: 'input_data must be at most 64 KiB serialized',
  });

/** `invocation_target` (SPEC §6), with the pure target and workflow-reference rules as coded issues. */
export const InvocationTargetSchema = z
  .object({ target: TargetRefSchema, workflow: WorkflowRefSchema, input_data: InputDataSchema.default([]) })
  .strict()
  .superRefine((t, ctx) => {
    const { target, workflow } = t;
    if (!isIdShape(target.blob) && !target.org) {
      coded(ctx, 'invalid_invocation_target', 'target.blob is an alias, so target.org is required', ['target', 'org']);
    }
    const following = target.revision === 'default';
    if (!following && !isIdShape(target.revision)) {
      coded(ctx, 'invalid_invocation_target', 'target.revision must be a revision id or "default"', ['target', 'revision']);
    }
    if (following && isIdShape(target.session)) {
      coded(ctx, 'invalid_invocation_target', 'a following target (revision "default") names its session by alias, not by id', ['target', 'session']);
    }
    if (workflow.blob === undefined && (workflow.org !== undefined || workflow.revision !== undefined)) {
      coded(ctx, 'invalid_workflow_reference', 'workflow.org and workflow.revision qualify workflow.blob, which is missing', ['workflow', 'blob']);
    }
    if (workflow.blob !== undefined && !isIdShape(workflow.blob) && !workflow.org) {
      coded(ctx, 'invalid_workflow_reference', 'workflow.blob is an alias, so workflow.org is required', ['workflow', 'org']);
    }
    if (workflow.revision !== undefined && workflow.revision !== 'default' && !isIdShape(workflow.revision)) {
      coded(ctx, 'invalid_workflow_reference', 'workflow.revision must be a revision id or "default"', ['workflow', 'revision']);
    }
    const definitionFollowsDefault =
      workflow.blob !== undefined ? (workflow.revision ?? 'default') === 'default' : following;
    if (definitionFollowsDefault && isIdShape(workflow.definition)) {
      coded(ctx, 'invalid_invocation_target', 'workflow.definition follows a default revision, so it must be an alias (a branch gives definitions new ids)', ['workflow', 'definition']);
    }
  });
export type InvocationTarget = z.infer<typeof InvocationTargetSchema>;

/**
 * Target types (SPEC §13). The product API creates `workflow` targets; the EventBridge-compatible API
 * (SPEC §14) also stores `http` (an `http(s)://` Target.Arn) and `aws` (any other ARN) targets, which
 * this build does not deliver yet: each of their fires is an `invocation_error` `unsupported_target`.
 */
export const INVOCATION_TARGET_TYPES = ['workflow', 'http', 'aws'] as const;
export type InvocationTargetType = (typeof INVOCATION_TARGET_TYPES)[number];

/** An `http` target (SPEC §13.1), as the EventBridge API stores it: the URL and the body (its Input, as sent). */
export const HttpTargetSchema = z.object({ url: z.string().min(1).max(2048), body: z.string().optional() }).strict();
export type HttpTarget = z.infer<typeof HttpTargetSchema>;

/** An `aws` target (SPEC §13.2), as the EventBridge API stores it. */
export const AwsTargetSchema = z
  .object({
    arn: z.string().min(1).max(1600),
    role_arn: z.string().max(1600).optional(),
    input: z.string().optional(),
    sqs_parameters: z.object({ message_group_id: z.string().max(128) }).strict().optional(),
    eventbridge_parameters: z.object({ detail_type: z.string().max(128), source: z.string().max(256) }).strict().optional(),
  })
  .strict();
export type AwsTarget = z.infer<typeof AwsTargetSchema>;

/** A target the product stores but this build does not deliver (SPEC §14): `http` or `aws`. */
export type ExternalTarget = { type: 'http'; target: HttpTarget } | { type: 'aws'; target: AwsTarget };

/**
 * The writable fields of a schedule, as a request names them (SPEC §5.1), without cross-field rules.
 * `null` clears an optional field (alias, description, start_date, end_date).
 */
export const ScheduleFieldsSchema = z
  .object({
    alias: z.string().max(200).nullable().optional(),
    description: z.string().max(256, 'description must be at most 256 characters').nullable().optional(),
    repeat: z.enum(REPEATS),
    invocation_time: z.string().max(64).optional(),
    cron_expression: z.string().max(256).optional(),
    timezone: z.string().max(64),
    start_date: IsoInstant.nullable().optional(),
    end_date: IsoInstant.nullable().optional(),
    enabled: z.boolean().optional(),
    invocation_target_type: z.literal('workflow').optional(),
    invocation_target: InvocationTargetSchema,
  })
  .strict();

/** The schedule fields without the target: the part shared by every target type. */
export const ScheduleTimingFieldsSchema = ScheduleFieldsSchema.omit({ invocation_target: true, invocation_target_type: true });

/** The SPEC §5.2 rules that need neither the database nor the clock. */
function checkScheduleRules(s: z.infer<typeof ScheduleTimingFieldsSchema>, ctx: z.RefinementCtx): void {
  if (s.repeat === 'one_time') {
    if (s.cron_expression !== undefined) ctx.addIssue({ code: 'custom', path: ['cron_expression'], message: 'cron_expression is only for repeat "recurring_cron"' });
    if (s.invocation_time === undefined) ctx.addIssue({ code: 'custom', path: ['invocation_time'], message: 'invocation_time is required for repeat "one_time"' });
  } else {
    if (s.invocation_time !== undefined) ctx.addIssue({ code: 'custom', path: ['invocation_time'], message: 'invocation_time is only for repeat "one_time"' });
    if (s.cron_expression === undefined) ctx.addIssue({ code: 'custom', path: ['cron_expression'], message: 'cron_expression is required for repeat "recurring_cron"' });
  }
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

/** `create_schedule` input: every writable field with the cross-field rules (SPEC §5). */
export const ScheduleCreateInput = ScheduleFieldsSchema.superRefine(checkScheduleRules);
export type ScheduleCreateInput = z.infer<typeof ScheduleCreateInput>;

/** A schedule's fields for an `http` or `aws` target (SPEC §14), which travels beside them: the same rules. */
export const ScheduleTimingInput = ScheduleTimingFieldsSchema.superRefine(checkScheduleRules);
export type ScheduleTimingInput = z.infer<typeof ScheduleTimingInput>;

/**
 * `update_schedule` input: any subset of the writable fields (SPEC §3.1). Cross-field rules run on
 * the stored schedule merged with these fields (see `mergeUpdate`).
 */
export const ScheduleUpdateInput = ScheduleFieldsSchema.partial().strict();
export type ScheduleUpdateInput = z.infer<typeof ScheduleUpdateInput>;

/** A schedule as the API returns it (SPEC §5.1). Optional fields are omitted, never null. */
export interface Schedule {
  id: string;
  alias?: string;
  /** The schedule's name in its group on the EventBridge-compatible API (SPEC §14); read-only. */
  name?: string;
  description?: string;
  repeat: Repeat;
  invocation_time?: string;
  cron_expression?: string;
  timezone: string;
  start_date?: string;
  end_date?: string;
  enabled: boolean;
  state: ScheduleState;
  invocation_target_type: InvocationTargetType;
  /** A workflow target (SPEC §6); an `HttpTarget` or `AwsTarget` when `invocation_target_type` says so. */
  invocation_target: InvocationTarget;
  next_fire_at: string | null;
  created_by: { type: 'user' | 'org'; id: string };
  skipped_occurrences: number;
  created_at: string;
  updated_at: string;
}

/** `result` of a run (SPEC §8.1). */
export type RunResult =
  | { execution_id: string; revision_id: string; session_id: string; definition_id: string }
  | { error: 'limit_exceeded'; limit: string; message: string }
  | { error: InvocationError; message?: string };

/** A run record as `list_executions` returns it (SPEC §8.1). */
export interface Run {
  id: string;
  schedule_id: string;
  scheduled_for: string;
  trigger: RunTrigger;
  created_at: string;
  invocation_target_type: InvocationTargetType;
  invocation_target: InvocationTarget;
  description?: string;
  status: RunStatus;
  result: RunResult;
}

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

export interface IssueError {
  code: CodedIssue | 'invalid_request_body';
  message: string;
  path?: string;
}

/** Dotted path of an issue: `invocation_target.target.session`, `input_data.0.alias`. */
export function issuePath(path: readonly PropertyKey[]): string | undefined {
  return path.length ? path.map(String).join('.') : undefined;
}

/**
 * The one error to answer for a failed parse: structural issues first (`invalid_request_body`),
 * then the first coded rule. Unknown keys name the key in `path`.
 */
export function firstIssueError(error: z.ZodError): IssueError {
  const structural = error.issues.find((i) => !(i.code === 'custom' && (i as { params?: { code?: string } }).params?.code));
  const issue = structural ?? error.issues[0];
  const code = structural ? 'invalid_request_body' : ((issue as { params?: { code?: CodedIssue } }).params?.code ?? 'invalid_request_body');
  let path = issuePath(issue.path);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    path = issuePath([...issue.path, key]);
    message = `unknown field "${String(key).slice(0, 64)}"`;
  } else if (path && structural) {
    // Coded rules write their own field-naming messages ("day-of-week: `8` is outside 1–7 …").
    message = `${path}: ${message}`;
  }
  return { code, message, path };
}
