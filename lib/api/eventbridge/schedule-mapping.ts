/**
 * EventBridge schedules ↔ the product's schedules (SPEC §14). Wire shapes in, the contract's fields
 * out, and back; the rules of schedules are the domain's (lib/schedules), which this file never
 * re-implements. What the product has no field for yet is kept in the schedule's facade data
 * (stored-data.ts) and answered from there.
 *
 * THE CADENCE SEAM: `cadenceFields` is the one place where `rate(...)`, `FlexibleTimeWindow`,
 * `Target.RetryPolicy`, `Target.DeadLetterConfig` and `ActionAfterCompletion` meet the domain's
 * `recurring_rate`, `flexible_time_window`, `retry_policy`, `dead_letter` and
 * `action_after_completion` (SPEC §12); GetSchedule answers them from the schedule itself, so an edit
 * in the web app shows through this API.
 */
import {
  parseScheduleExpression,
  ScheduleExpressionError,
  targetAddress,
  type AwsInvocationTarget,
  type InvocationTargetType,
  type Schedule,
  type InvocationTarget,
  type TargetFields,
  type TargetOf,
} from '../../schedules';
import { AwsError } from './errors';
import type { GroupSchedule } from './groups/group-schedules';
import { validationError } from './validate';
import {
  DEFAULT_RETRY_POLICY,
  fromWireTime,
  scheduleArn,
  toWireTime,
  type EventBridgeContext,
  type WireScheduleInput,
  type WireTarget,
} from './wire';
import { liveStoredData, type StoredEventBridge } from './stored-data';
import { looksLikeWorkflowArn, parseWorkflowArn, unreachableTargetMessage, workflowArnAccount, workflowArnOf } from './workflow-arn';

/** The product's description limit (SPEC §5.2); the EventBridge API takes up to 512 (docs/decisions.md). */
const PRODUCT_DESCRIPTION_MAX = 256;

/** The role shown for a schedule made outside the EventBridge API, which has none (docs/decisions.md). */
const productRoleArn = (accountId: string) => `arn:aws:iam::${accountId}:role/scheduler-product-api`;

/**
 * `Target.RoleArn` as a role to store: none when it is the placeholder GetSchedule answers for a
 * schedule without a role (`productRoleArn`), which names no real role; a GetSchedule → UpdateSchedule
 * round trip sends it back, and storing it would make a delivery or a dead letter assume it.
 */
function sentRole(roleArn: string | undefined, ctx: Pick<EventBridgeContext, 'accountId'>): string | undefined {
  return roleArn === productRoleArn(ctx.accountId) ? undefined : roleArn;
}

/** The schedule fields (with the target) the domain's create/update take, and what the column stores. */
export interface DomainSchedule {
  input: Record<string, unknown>;
  eventbridge: StoredEventBridge;
}

const invalidExpression = (expr: string) => new AwsError('ValidationException', `Invalid Schedule Expression ${expr}.`);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `[{alias, value}, …]` exactly, or null. */
function asInputData(v: unknown): InvocationTarget['input_data'] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const ok = v.every((d) => typeof d === 'object' && d !== null && !Array.isArray(d) && Object.keys(d).sort().join(',') === 'alias,value' && typeof (d as { alias: unknown }).alias === 'string');
  return ok ? (v as InvocationTarget['input_data']) : null;
}

/**
 * The target (SPEC §14 "Targets") as the contract's `invocation_target_type` and `invocation_target`:
 * - a workflow ARN → `workflow`, with `Input` as its input_data (an array of `{alias, value}` as it
 *   is, any other JSON as `[{"alias": "input", "value": …}]`);
 * - an `http(s)://` URL → `http`, with `Input` as the body: the JSON value when Input parses as JSON
 *   (sent as that JSON, as AWS sends it), else the text itself (docs/decisions.md);
 * - any other ARN → `aws`: Input, SqsParameters, EventBridgeParameters and EcsParameters map onto
 *   `input`, `sqs_parameters`, `eventbridge_parameters` and `ecs_parameters`.
 * The domain validates the result (the ARN's rules, JSON input for Lambda, Step Functions and
 * EventBridge, the webhook's destination); its refusals are ValidationExceptions.
 */
function mapTarget(t: WireTarget, ctx: Pick<EventBridgeContext, 'accountId'>): TargetFields {
  if (looksLikeWorkflowArn(t.Arn)) {
    const ref = parseWorkflowArn(t.Arn);
    if (!ref) throw validationError('target.arn', t.Arn, 'Member must be a workflow ARN arn:aws:scheduler:<region>:<account>:workflow/<org>/<blob>/<revision or default>/<session>/<definition>');
    // SPEC §14: a workflow ARN naming another account is a target this account cannot reach (decisions 253).
    const account = workflowArnAccount(t.Arn);
    if (account && account !== ctx.accountId) throw new AwsError('ValidationException', unreachableTargetMessage(t.Arn, account));
    let input_data: InvocationTarget['input_data'] = [];
    if (t.Input !== undefined) {
      if (!isJson(t.Input)) throw validationError('target.input', t.Input, 'Member must be well-formed JSON for a workflow target');
      const parsed = JSON.parse(t.Input);
      input_data = asInputData(parsed) ?? [{ alias: 'input', value: parsed }];
    }
    return { invocation_target_type: 'workflow', invocation_target: { ...ref, input_data } };
  }
  if (/^https?:\/\//i.test(t.Arn)) {
    return { invocation_target_type: 'http', invocation_target: { url: t.Arn, ...(t.Input !== undefined ? { body: isJson(t.Input) ? JSON.parse(t.Input) : t.Input } : {}) } };
  }
  const ecs = ecsParametersOf(t.EcsParameters);
  const aws: AwsInvocationTarget = {
    arn: t.Arn,
    role_arn: sentRole(t.RoleArn, ctx),
    ...(t.Input !== undefined ? { input: t.Input } : {}),
    ...(t.SqsParameters?.MessageGroupId ? { sqs_parameters: { message_group_id: t.SqsParameters.MessageGroupId } } : {}),
    ...(t.EventBridgeParameters ? { eventbridge_parameters: { detail_type: t.EventBridgeParameters.DetailType, source: t.EventBridgeParameters.Source } } : {}),
    ...(ecs ? { ecs_parameters: ecs } : {}),
  };
  return { invocation_target_type: 'aws', invocation_target: aws };
}

/** A stored target's fields the EventBridge Target has no members for, kept by an UpdateSchedule that sends the Target back, by type. */
type KeepOnUpdate = { [T in InvocationTargetType]?: (next: TargetOf<T>, stored: TargetOf<T>) => TargetOf<T> };

/**
 * This facade's rules of what an UpdateSchedule keeps of the stored target (docs/decisions.md): of a
 * webhook whose URL stays the same, its `method`, `headers` and `timeout_seconds` — the Target has no
 * members for them, so a client sending back the Target it read would otherwise drop a configured
 * credential header without a word. Everything the Target does express is replaced, as AWS does.
 */
const KEEP_ON_UPDATE: KeepOnUpdate = {
  http(next, stored) {
    if (next.url !== stored.url) return next;
    const { method, headers, timeout_seconds } = stored;
    return { ...(method ? { method } : {}), ...(headers ? { headers } : {}), ...(timeout_seconds ? { timeout_seconds } : {}), ...next };
  },
};

/**
 * UpdateSchedule keeps the stored target's fields the EventBridge Target cannot express
 * (`KEEP_ON_UPDATE`) when the Target keeps its type. Mutates and returns `input`.
 */
export function keepUnexpressedFields(input: Record<string, unknown>, stored: Schedule): Record<string, unknown> {
  if (input.invocation_target_type !== stored.invocation_target_type) return input;
  const keep = KEEP_ON_UPDATE[stored.invocation_target_type] as ((next: unknown, stored: unknown) => unknown) | undefined;
  if (keep) input.invocation_target = keep(input.invocation_target, stored.invocation_target);
  return input;
}

/**
 * AWS `EcsParameters` → `ecs_parameters` (SPEC §13.2): the task definition, count, launch type,
 * platform version, group and awsvpc network configuration. The other members (capacity providers,
 * placement, tags…) stay in the stored Target and are answered as sent.
 */
function ecsParametersOf(p: WireTarget['EcsParameters']): AwsInvocationTarget['ecs_parameters'] {
  if (!p) return undefined;
  const vpc = (p.NetworkConfiguration as { awsvpcConfiguration?: { Subnets?: string[]; SecurityGroups?: string[]; AssignPublicIp?: 'ENABLED' | 'DISABLED' } } | undefined)?.awsvpcConfiguration;
  const out = {
    task_definition_arn: p.TaskDefinitionArn as string,
    ...(p.TaskCount !== undefined ? { task_count: p.TaskCount as number } : {}),
    ...(p.LaunchType !== undefined ? { launch_type: p.LaunchType as 'EC2' | 'FARGATE' | 'EXTERNAL' } : {}),
    ...(p.PlatformVersion !== undefined ? { platform_version: p.PlatformVersion as string } : {}),
    ...(p.Group !== undefined ? { group: p.Group as string } : {}),
    ...(vpc
      ? {
          network_configuration: {
            awsvpc_configuration: {
              subnets: vpc.Subnets ?? [],
              ...(vpc.SecurityGroups ? { security_groups: vpc.SecurityGroups } : {}),
              ...(vpc.AssignPublicIp ? { assign_public_ip: vpc.AssignPublicIp } : {}),
            },
          },
        }
      : {}),
  };
  return out;
}

/** A dead letter to store: its queue, and its role only when one was sent (no `role_arn: undefined` member). */
function deadLetterOf(arn: string, roleArn: string | undefined): { arn: string; role_arn?: string } {
  return roleArn === undefined ? { arn } : { arn, role_arn: roleArn };
}

/**
 * THE CADENCE SEAM (see the file comment), SPEC §14's mapping onto §12:
 * - `cron(...)` → `recurring_cron` + `cron_expression`; `at(...)` → `one_time` + `invocation_time`;
 *   `rate(v unit)` → `recurring_rate` + `rate_expression: "v unit"` (anchored as §12.1 says);
 * - `FlexibleTimeWindow` → `flexible_time_window` (FLEXIBLE needs `MaximumWindowInMinutes`, AWS's rule;
 *   a window sent with OFF is accepted as the model allows, answered as sent, and moves no fire:
 *   decision 315, kept in the facade data by `toDomainSchedule`);
 * - `Target.RetryPolicy` → `retry_policy`, each absent member AWS's default (185 attempts, 86,400 s);
 * - `Target.DeadLetterConfig.Arn` → `dead_letter` (absent: none), with `Target.RoleArn` as its
 *   `role_arn`: AWS sends a schedule's dead letters with the Target's role (SPEC §13.5);
 * - `ActionAfterCompletion` NONE | DELETE → `action_after_completion` none | delete.
 * Every field is set, so an UpdateSchedule replaces them all (EVENTBRIDGE.md §3.3). The domain
 * validates their bounds and grammar; its refusals map to ValidationException (domain-errors.ts).
 */
function cadenceFields(wire: WireScheduleInput, ctx: EventBridgeContext): Record<string, unknown> {
  const expr = wire.ScheduleExpression;
  let parsed;
  try {
    parsed = parseScheduleExpression(expr);
  } catch (e) {
    if (e instanceof ScheduleExpressionError) throw invalidExpression(expr);
    throw e;
  }
  const window = wire.FlexibleTimeWindow;
  if (window.Mode === 'FLEXIBLE' && window.MaximumWindowInMinutes === undefined) {
    throw validationError('flexibleTimeWindow.maximumWindowInMinutes', null, 'Member must not be null when flexibleTimeWindow.mode is FLEXIBLE');
  }
  const retry = wire.Target.RetryPolicy ?? {};
  const delivery = {
    flexible_time_window: window.Mode === 'FLEXIBLE' ? { mode: 'flexible', maximum_window_minutes: window.MaximumWindowInMinutes } : { mode: 'off' },
    retry_policy: {
      maximum_retry_attempts: retry.MaximumRetryAttempts ?? DEFAULT_RETRY_POLICY.MaximumRetryAttempts,
      maximum_event_age_seconds: retry.MaximumEventAgeInSeconds ?? DEFAULT_RETRY_POLICY.MaximumEventAgeInSeconds,
    },
    dead_letter: wire.Target.DeadLetterConfig?.Arn ? deadLetterOf(wire.Target.DeadLetterConfig.Arn, sentRole(wire.Target.RoleArn, ctx)) : null,
    action_after_completion: wire.ActionAfterCompletion === 'DELETE' ? 'delete' : 'none',
  };
  switch (parsed.kind) {
    case 'cron':
      return { repeat: 'recurring_cron', cron_expression: expr.slice('cron('.length, -1), ...delivery };
    case 'at':
      return { repeat: 'one_time', invocation_time: parsed.invocationTime, ...delivery };
    case 'rate':
      return { repeat: 'recurring_rate', rate_expression: expr.slice('rate('.length, -1), ...delivery };
    default:
      return parsed satisfies never;
  }
}

/**
 * A StartDate or EndDate as an ISO 8601 instant. AWS's timestamps end with year 9999 (what the CLI and
 * boto3 can send); a later instant, which the JavaScript SDK can send, is refused in the model's
 * constraint wording, naming the member (docs/decisions.md 254).
 * @throws AwsError ValidationException for an instant after 9999-12-31T23:59:59.999Z or none at all.
 */
function wireDate(member: 'startDate' | 'endDate', v: number | string): string {
  const d = fromWireTime(v);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() > 9999) throw validationError(member, v, 'Member must be a timestamp no later than 9999-12-31T23:59:59Z');
  return d.toISOString();
}

/**
 * A Create/UpdateSchedule input as the domain's fields (full replacement: every optional field absent
 * from the request is cleared or set to its default — UTC, ENABLED, no description or dates).
 * @throws AwsError ValidationException for an expression or target the wire already refuses.
 */
export function toDomainSchedule(wire: WireScheduleInput, ctx: EventBridgeContext, groupName: string): DomainSchedule {
  const cadence = cadenceFields(wire, ctx);
  const target = mapTarget(wire.Target, ctx);
  const description = wire.Description;
  const arn = scheduleArn(ctx, groupName, wire.Name);
  const input: Record<string, unknown> = {
    ...cadence,
    timezone: wire.ScheduleExpressionTimezone ?? 'UTC',
    description: description === undefined ? null : description.slice(0, PRODUCT_DESCRIPTION_MAX),
    // SPEC §14 / DOC: StartDate and EndDate do not bound an at() schedule; they are stored as sent.
    start_date: wire.StartDate === undefined ? null : wireDate('startDate', wire.StartDate),
    end_date: wire.EndDate === undefined ? null : wireDate('endDate', wire.EndDate),
    enabled: (wire.State ?? 'ENABLED') === 'ENABLED',
    ...target,
  };
  const eventbridge: StoredEventBridge = {
    v: 1,
    region: ctx.region,
    account: ctx.accountId,
    arn,
    target: wire.Target,
    expression: wire.ScheduleExpression,
    ...(description !== undefined && description.length > PRODUCT_DESCRIPTION_MAX ? { description } : {}),
    // Without Input, every target type gets the default event (SPEC §13.3), named for this request's region and account.
    ...(wire.Target.Input === undefined ? { defaultEvent: { arn, region: ctx.region, account: ctx.accountId } } : {}),
    ...(wire.KmsKeyArn ? { kmsKeyArn: wire.KmsKeyArn } : {}),
    // Decision 315: a window sent with Mode OFF is kept to be answered as sent; it never moves a fire.
    ...(wire.FlexibleTimeWindow.Mode === 'OFF' && wire.FlexibleTimeWindow.MaximumWindowInMinutes !== undefined ? { offWindowMinutes: wire.FlexibleTimeWindow.MaximumWindowInMinutes } : {}),
  };
  return { input, eventbridge };
}

/**
 * The Target members answered from the product's fields (retries and the dead letter aside). `RoleArn`
 * is present, even when unset, exactly for a type that holds a role.
 */
type WireDerived = Omit<WireTarget, 'RoleArn' | 'RetryPolicy' | 'DeadLetterConfig'> & { RoleArn?: string | undefined };

/** `ecs_parameters` → AWS `EcsParameters` (`ecsParametersOf`'s inverse), unset members absent. */
function wireEcsParameters(p: NonNullable<AwsInvocationTarget['ecs_parameters']>): Record<string, unknown> {
  const vpc = p.network_configuration?.awsvpc_configuration;
  return {
    TaskDefinitionArn: p.task_definition_arn,
    ...(p.task_count !== undefined ? { TaskCount: p.task_count } : {}),
    ...(p.launch_type !== undefined ? { LaunchType: p.launch_type } : {}),
    ...(p.platform_version !== undefined ? { PlatformVersion: p.platform_version } : {}),
    ...(p.group !== undefined ? { Group: p.group } : {}),
    ...(vpc
      ? {
          NetworkConfiguration: {
            awsvpcConfiguration: {
              Subnets: vpc.subnets,
              ...(vpc.security_groups ? { SecurityGroups: vpc.security_groups } : {}),
              ...(vpc.assign_public_ip ? { AssignPublicIp: vpc.assign_public_ip } : {}),
            },
          },
        }
      : {}),
  };
}

/**
 * How each target type is answered as an EventBridge Target (SPEC §14, `mapTarget`'s inverse): every
 * member the product's fields hold; a type this table does not name is answered with its address as
 * the `Arn`.
 */
const WIRE_TARGETS: { [T in InvocationTargetType]?: (t: TargetOf<T>, ctx: EventBridgeContext) => WireDerived } = {
  workflow: (it, ctx) => ({ Arn: workflowArnOf(ctx.region, ctx.accountId, it), ...(it.input_data.length ? { Input: JSON.stringify(it.input_data) } : {}) }),
  // The body back as Input: a text as it is, any other JSON value serialized.
  http: (t) => ({ Arn: t.url, ...(t.body !== undefined ? { Input: typeof t.body === 'string' ? t.body : JSON.stringify(t.body) } : {}) }),
  aws: (t) => ({
    Arn: t.arn,
    ...(t.input !== undefined ? { Input: t.input } : {}),
    RoleArn: t.role_arn,
    ...(t.sqs_parameters ? { SqsParameters: { MessageGroupId: t.sqs_parameters.message_group_id } } : {}),
    ...(t.eventbridge_parameters ? { EventBridgeParameters: { DetailType: t.eventbridge_parameters.detail_type, Source: t.eventbridge_parameters.source } } : {}),
    ...(t.ecs_parameters ? { EcsParameters: wireEcsParameters(t.ecs_parameters) } : {}),
  }),
};

/**
 * The Target answered: built from the schedule's current fields, with AWS's default RetryPolicy. While
 * the target was not changed elsewhere (`liveStoredData` keeps `stored.target` only then), the Target
 * as sent is laid over it: it agrees with every member the product holds and adds what the product
 * cannot hold (Input's text as sent, ECS members beyond §13.2, Kinesis and SageMaker parameters). A
 * workflow or webhook target's RoleArn is the one last sent even after such a change (the product
 * holds no role for them).
 */
function wireTarget(gs: GroupSchedule, ctx: EventBridgeContext, stored: Partial<StoredEventBridge>): WireTarget {
  const s = gs.schedule;
  const derived: WireDerived = (WIRE_TARGETS[s.invocation_target_type] as ((t: unknown, ctx: EventBridgeContext) => WireDerived) | undefined)?.(s.invocation_target, ctx) ?? {
    Arn: targetAddress(s.invocation_target_type, s.invocation_target, s.id),
  };
  // Retries and the dead letter are the schedule's own (SPEC §12.2–§12.3), whoever set them last; a
  // schedule without a retry policy makes one attempt, which AWS spells MaximumRetryAttempts 0.
  const { DeadLetterConfig: _sentDeadLetter, RetryPolicy: _sentRetry, ...sent } = stored.target ?? {};
  const retry = s.retry_policy;
  return {
    ...derived,
    ...sent,
    ...(derived.EcsParameters && sent.EcsParameters ? { EcsParameters: { ...derived.EcsParameters, ...sent.EcsParameters } } : {}),
    // A type that holds a role answers its own (an `aws` target's `role_arn`); for the others, the
    // dead letter's role (decision 212: the one an UpdateSchedule stores there), else the one sent;
    // the placeholder only when the schedule has no role at all.
    RoleArn: ('RoleArn' in derived ? derived.RoleArn : (s.dead_letter?.role_arn ?? sent.RoleArn)) ?? productRoleArn(ctx.accountId),
    RetryPolicy: retry
      ? { MaximumEventAgeInSeconds: retry.maximum_event_age_seconds, MaximumRetryAttempts: retry.maximum_retry_attempts }
      : { MaximumEventAgeInSeconds: DEFAULT_RETRY_POLICY.MaximumEventAgeInSeconds, MaximumRetryAttempts: 0 },
    ...(s.dead_letter ? { DeadLetterConfig: { Arn: s.dead_letter.arn } } : {}),
  } as WireTarget;
}

/** The expression answered: as sent, unless the product changed the cadence since. */
function wireExpression(gs: GroupSchedule, stored: Partial<StoredEventBridge>): string {
  if (stored.expression) return stored.expression;
  const s = gs.schedule;
  return s.repeat === 'one_time' ? `at(${s.invocation_time})` : s.repeat === 'recurring_rate' ? `rate(${s.rate_expression})` : `cron(${s.cron_expression})`;
}

/** GetSchedule's answer (EVENTBRIDGE.md §3.2): AWS's defaults filled in, unset fields absent. */
export function toWireSchedule(gs: GroupSchedule, ctx: EventBridgeContext): Record<string, unknown> {
  const s = gs.schedule;
  const stored = liveStoredData(gs.eventbridge);
  const description = stored.description ?? s.description;
  return {
    ActionAfterCompletion: s.action_after_completion === 'delete' ? 'DELETE' : 'NONE',
    Arn: scheduleArn(ctx, gs.groupName, s.name),
    CreationDate: toWireTime(s.created_at),
    ...(description !== undefined ? { Description: description } : {}),
    ...(s.end_date ? { EndDate: toWireTime(s.end_date) } : {}),
    FlexibleTimeWindow:
      s.flexible_time_window?.mode === 'flexible'
        ? { Mode: 'FLEXIBLE', MaximumWindowInMinutes: s.flexible_time_window.maximum_window_minutes }
        : { Mode: 'OFF', ...(stored.offWindowMinutes !== undefined ? { MaximumWindowInMinutes: stored.offWindowMinutes } : {}) },
    GroupName: gs.groupName,
    ...(stored.kmsKeyArn ? { KmsKeyArn: stored.kmsKeyArn } : {}),
    LastModificationDate: toWireTime(s.updated_at),
    Name: s.name,
    ScheduleExpression: wireExpression(gs, stored),
    ScheduleExpressionTimezone: s.timezone,
    ...(s.start_date ? { StartDate: toWireTime(s.start_date) } : {}),
    State: s.enabled ? 'ENABLED' : 'DISABLED',
    Target: wireTarget(gs, ctx, stored),
  };
}

/** A ListSchedules entry (ScheduleSummary): only the target's Arn, no expression. */
export function toWireSummary(gs: GroupSchedule, ctx: EventBridgeContext): Record<string, unknown> {
  const s = gs.schedule;
  return {
    Arn: scheduleArn(ctx, gs.groupName, s.name),
    CreationDate: toWireTime(s.created_at),
    GroupName: gs.groupName,
    LastModificationDate: toWireTime(s.updated_at),
    Name: s.name,
    State: s.enabled ? 'ENABLED' : 'DISABLED',
    Target: { Arn: wireTarget(gs, ctx, liveStoredData(gs.eventbridge)).Arn },
  };
}
