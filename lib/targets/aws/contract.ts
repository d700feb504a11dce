/**
 * The `aws` target type's contract (SPEC §13.2): AWS services reached through the AWS SDK, chosen by
 * the target ARN's service, the `result` shapes their runs record, and the dead letter's SQS queue
 * (SPEC §12.3). Universal (no I/O, no Node import): the New Schedule form, the API and the CLI share it.
 *
 * Structural problems (wrong type, unknown key, a bound) are plain zod issues (`400
 * invalid_request_body`); rules with their own SPEC code are custom issues carrying
 * `params.code: 'invalid_invocation_target'` (`refuse`).
 */
import { z } from 'zod';
import { addressedBy, defineTargetContract, detailWords, PAYLOAD_MAX_BYTES, refuse, RepeatedDelivery, utf8Length } from '../define';

// ---------------------------------------------------------------------------------------------
// §13.2 aws

/**
 * The AWS services an `aws` target delivers to, by the ARN's service name (SPEC §13.2):
 * `sqs` SendMessage, `sns` Publish, `lambda` Invoke (asynchronous), `states` StartExecution,
 * `events` PutEvents, `ecs` RunTask. Any other ARN is `400 invalid_invocation_target`.
 */
export const AWS_TARGET_SERVICES = ['sqs', 'sns', 'lambda', 'states', 'events', 'ecs'] as const;
export type AwsTargetService = (typeof AWS_TARGET_SERVICES)[number];

/** The services whose `input` must be JSON (SPEC §13.2; AWS `Target.Input`). */
export const JSON_INPUT_SERVICES: readonly AwsTargetService[] = ['lambda', 'states', 'events'];

/** An ARN taken apart: `arn:<partition>:<service>:<region>:<account>:<resource>`. */
export interface ParsedTargetArn {
  partition: string;
  service: AwsTargetService;
  region: string;
  /** 12 digits. */
  account: string;
  /** The service's own name: queue, topic, function (with `:qualifier`), state machine, bus, cluster. */
  name: string;
  /** SQS queues and SNS topics whose name ends in `.fifo`. */
  fifo: boolean;
}

const ARN = /^arn:(aws(?:-[a-z]+)*):([a-z0-9-]+):([a-z]{2}(?:-[a-z]+)+-\d{1,2}):(\d{12}):(.+)$/;
/** The resource part of each service's ARN, capturing the name. */
const RESOURCE: Record<AwsTargetService, RegExp> = {
  sqs: /^([A-Za-z0-9_-]{1,75}(?:\.fifo)?|[A-Za-z0-9_-]{1,80})$/,
  sns: /^([A-Za-z0-9_-]{1,251}(?:\.fifo)?|[A-Za-z0-9_-]{1,256})$/,
  lambda: /^function:([A-Za-z0-9_-]{1,64}(?::(?:\$LATEST|[A-Za-z0-9_-]{1,128}))?)$/,
  states: /^stateMachine:([A-Za-z0-9_.-]{1,80})$/,
  events: /^event-bus\/([A-Za-z0-9_./-]{1,256})$/,
  ecs: /^cluster\/([A-Za-z0-9_-]{1,255})$/,
};
const RESOURCE_SHAPE: Record<AwsTargetService, string> = {
  sqs: 'arn:aws:sqs:<region>:<account>:<queue name>',
  sns: 'arn:aws:sns:<region>:<account>:<topic name>',
  lambda: 'arn:aws:lambda:<region>:<account>:function:<name>[:<version or alias>]',
  states: 'arn:aws:states:<region>:<account>:stateMachine:<name>',
  events: 'arn:aws:events:<region>:<account>:event-bus/<name>',
  ecs: 'arn:aws:ecs:<region>:<account>:cluster/<name>',
};

/**
 * Parse a target ARN (SPEC §13.2). Returns the parts, or `{problem}` naming what is wrong: not an
 * ARN, a service outside `AWS_TARGET_SERVICES`, or a resource not of that service's shape. Pure.
 */
export function parseTargetArn(arn: string): ParsedTargetArn | { problem: string } {
  const m = ARN.exec(arn);
  if (!m) return { problem: 'arn must look like arn:aws:<service>:<region>:<12-digit account>:<resource>' };
  const [, partition, service, region, account, resource] = m;
  if (!(AWS_TARGET_SERVICES as readonly string[]).includes(service)) {
    return { problem: `"${service.slice(0, 40)}" ARNs are not a supported target; use one of ${AWS_TARGET_SERVICES.join(', ')}` };
  }
  const s = service as AwsTargetService;
  const r = RESOURCE[s].exec(resource);
  if (!r) return { problem: `a ${s} target ARN looks like ${RESOURCE_SHAPE[s]}` };
  const name = r[1];
  return { partition, service: s, region, account, name, fifo: (s === 'sqs' || s === 'sns') && name.endsWith('.fifo') };
}

// ---------------------------------------------------------------------------------------------
// §14 universal targets: arn:aws:scheduler:::aws-sdk:<service>:<apiAction>

/**
 * The services whose universal targets the product calls (SPEC §14: every service of §13.2 plus
 * DynamoDB, Kinesis, Firehose, CloudWatch Logs and SES), by the AWS SDK's service identifier, as
 * universal target ARNs name them (`sqs`, `sfn`, `eventbridge`, `cloudwatchlogs`…). The driver's
 * table of SDK clients (lib/targets/aws/universal.ts) is keyed by this list: the compiler keeps the two
 * together.
 */
export const UNIVERSAL_SERVICES = ['sqs', 'sns', 'lambda', 'sfn', 'eventbridge', 'ecs', 'dynamodb', 'kinesis', 'firehose', 'cloudwatchlogs', 'ses'] as const;
export type UniversalService = (typeof UNIVERSAL_SERVICES)[number];

/** The IAM prefixes of the same services, accepted as their SDK identifiers (decision 312). */
const UNIVERSAL_ALIASES: Record<string, UniversalService> = { states: 'sfn', events: 'eventbridge', logs: 'cloudwatchlogs' };

/**
 * Read-only actions EventBridge Scheduler does not call (EVENTBRIDGE.md §9, the AWS user guide's
 * "Unsupported actions"): an apiAction beginning with one of these (case-insensitive) is refused at
 * save (decision 313).
 */
export const READ_ONLY_ACTION_PREFIXES = [
  'get', 'describe', 'list', 'poll', 'receive', 'search', 'scan', 'query', 'select', 'read', 'lookup', 'discover', 'validate',
  'batchGet', 'batchDescribe', 'batchRead', 'transactGet', 'adminGet', 'adminList', 'testMigration', 'retrieve', 'testConnection',
  'translateDocument', 'isAuthorized', 'invokeModel',
] as const;

/** A universal target ARN taken apart (SPEC §14). */
export interface UniversalTargetArn {
  partition: string;
  /** The service as the ARN names it. */
  service: string;
  /** The service whose SDK client calls it, or null when the product calls no such service. */
  sdkService: UniversalService | null;
  /** The apiAction as written (`putItem`, `sendMessage`). */
  action: string;
}

const UNIVERSAL_ARN = /^arn:(aws(?:-[a-z]+)*):scheduler:::aws-sdk:([a-z0-9-]{1,64}):([A-Za-z][A-Za-z0-9]{0,127})$/;

/**
 * `arn:aws:scheduler:::aws-sdk:<service>:<apiAction>` taken apart, or null when `arn` is not a
 * universal target ARN. Pure.
 */
export function parseUniversalArn(arn: string): UniversalTargetArn | null {
  const m = UNIVERSAL_ARN.exec(arn);
  if (!m) return null;
  const [, partition, service, action] = m;
  const sdkService = (UNIVERSAL_SERVICES as readonly string[]).includes(service) ? (service as UniversalService) : (UNIVERSAL_ALIASES[service] ?? null);
  return { partition, service, sdkService, action };
}

/** The read-only prefix `action` begins with (EventBridge Scheduler does not call it), or null. */
export function readOnlyPrefix(action: string): string | null {
  const lower = action.toLowerCase();
  return READ_ONLY_ACTION_PREFIXES.find((p) => lower.startsWith(p.toLowerCase())) ?? null;
}

/**
 * The save-time rules of a universal target (SPEC §14): `input` required, a JSON object (the action's
 * parameters); no templated-target parameters; no read-only action; a service the product calls
 * (or, on the EventBridge API, any service: stored, its fires `unsupported_target`).
 */
function refuseUniversal(t: { input?: string; sqs_parameters?: unknown; eventbridge_parameters?: unknown; ecs_parameters?: unknown }, u: UniversalTargetArn, ctx: z.RefinementCtx, otherServices: OtherAwsServices): void {
  const what = `aws-sdk:${u.service}:${u.action}`;
  if (u.sdkService === null && otherServices === 'refuse') {
    refuse(ctx, `universal targets call ${UNIVERSAL_SERVICES.join(', ')}; "${u.service}" is not one of them`, ['arn']);
  }
  const prefix = readOnlyPrefix(u.action);
  if (prefix) refuse(ctx, `${u.action} is a read-only action (it begins with "${prefix}"), which EventBridge Scheduler does not call`, ['arn']);
  for (const key of ['sqs_parameters', 'eventbridge_parameters', 'ecs_parameters'] as const) {
    if (t[key] !== undefined) refuse(ctx, `${key} apply to templated targets; a universal target takes its parameters in input`, [key]);
  }
  if (t.input === undefined) return refuse(ctx, `a universal target needs input: the parameters of ${what} as a JSON object`, ['input']);
  let value: unknown;
  try {
    value = JSON.parse(t.input);
  } catch {
    return refuse(ctx, `input must be well-formed JSON: the parameters of ${what} as a JSON object`, ['input']);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(ctx, `input must be a JSON object: the parameters of ${what}`, ['input']);
}

/** AWS `RoleArn` (EVENTBRIDGE.md §3.1): the role an org's deliveries assume (SPEC §13.5). */
// Every partition (`aws`, `aws-cn`, `aws-us-gov`, `aws-iso-b`…: lib/config/regions.ts) the product issues ARNs in.
export const ROLE_ARN = /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]+$/;
/** SQS `MessageGroupId`: 1–128 alphanumeric or punctuation characters. */
const MESSAGE_GROUP_ID = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]{1,128}$/;
/** EventBridge `Source`: AWS's characters, and never `aws.` (reserved for AWS services). */
const EVENT_SOURCE = /^[/.\-_A-Za-z0-9]+$/;

/** ECS `TaskCount`: tasks RunTask starts per fire, inclusive bounds (AWS `EcsParameters`). Default 1. */
export const ECS_TASK_COUNT = [1, 10] as const;
/** ECS `LaunchType`; absent: the cluster's default capacity provider strategy. */
export const ECS_LAUNCH_TYPES = ['EC2', 'FARGATE', 'EXTERNAL'] as const;
/** ECS `AssignPublicIp` of an awsvpc network configuration; absent: `DISABLED`. */
export const ECS_ASSIGN_PUBLIC_IP = ['ENABLED', 'DISABLED'] as const;

/** `ecs_parameters` (SPEC §13.2, AWS `EcsParameters`): what RunTask starts on the ARN's cluster. */
export const EcsParametersSchema = z
  .object({
    task_definition_arn: z.string().min(1).max(1600),
    task_count: z.number().int().min(ECS_TASK_COUNT[0]).max(ECS_TASK_COUNT[1]).optional(),
    launch_type: z.enum(ECS_LAUNCH_TYPES).optional(),
    platform_version: z.string().min(1).max(64).optional(),
    group: z.string().min(1).max(255).optional(),
    network_configuration: z
      .object({
        awsvpc_configuration: z
          .object({
            subnets: z.array(z.string().min(1).max(1000)).min(1).max(16),
            security_groups: z.array(z.string().min(1).max(1000)).max(5).optional(),
            assign_public_ip: z.enum(ECS_ASSIGN_PUBLIC_IP).optional(),
          })
          .strict(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type EcsParameters = z.infer<typeof EcsParametersSchema>;

/**
 * What a target whose ARN names a service outside `AWS_TARGET_SERVICES` meets (SPEC §13.2, §14):
 * - `refuse`: `400 invalid_invocation_target` (the product API, the web form, the CLI);
 * - `store`: accepted and stored unchanged, as the EventBridge API takes it; each of its fires is a
 *   failed attempt `unsupported_target`. The rules of the supported services still apply.
 */
export type OtherAwsServices = 'refuse' | 'store';

/** The one declaration of the `aws` target (SPEC §13.2), with the treatment of other services' ARNs. */
function awsTargetSchema(otherServices: OtherAwsServices) {
  return z
    .object({
      arn: z.string().min(1).max(1600),
      role_arn: z.string().max(1600).regex(ROLE_ARN, 'role_arn must be an IAM role ARN: arn:aws:iam::<account>:role/<name>').optional(),
      input: z.string().min(1).optional(),
      sqs_parameters: z.object({ message_group_id: z.string().regex(MESSAGE_GROUP_ID, 'message_group_id must be 1–128 letters, digits or punctuation') }).strict().optional(),
      eventbridge_parameters: z
        .object({
          detail_type: z.string().min(1).max(128),
          source: z
            .string()
            .min(1)
            .max(256)
            .regex(EVENT_SOURCE, 'source may hold letters, digits and . - _ /')
            .refine((s) => !s.startsWith('aws.'), 'source must not start with "aws." (reserved for AWS services)'),
        })
        .strict()
        .optional(),
      ecs_parameters: EcsParametersSchema.optional(),
    })
    .strict()
    .superRefine((t, ctx) => {
      if (t.input !== undefined && utf8Length(t.input) > PAYLOAD_MAX_BYTES) {
        ctx.addIssue({ code: 'custom', message: `input must be at most ${PAYLOAD_MAX_BYTES / 1024} KiB`, path: ['input'] });
      }
      const universal = parseUniversalArn(t.arn);
      if (universal) return refuseUniversal(t, universal, ctx, otherServices);
      const parsed = parseTargetArn(t.arn);
      if ('problem' in parsed) {
        if (otherServices === 'store' && isOtherServiceArn(t.arn)) return;
        return refuse(ctx, parsed.problem, ['arn']);
      }
      const { service } = parsed;
      if (t.sqs_parameters && service !== 'sqs' && !(service === 'sns' && parsed.fifo)) {
        refuse(ctx, 'sqs_parameters apply to SQS queues (and FIFO SNS topics) only', ['sqs_parameters']);
      }
      if (parsed.fifo && !t.sqs_parameters) {
        refuse(ctx, `a FIFO ${service === 'sqs' ? 'queue' : 'topic'} needs sqs_parameters.message_group_id`, ['sqs_parameters']);
      }
      if (service === 'events' && !t.eventbridge_parameters) refuse(ctx, 'an EventBridge target needs eventbridge_parameters {detail_type, source}', ['eventbridge_parameters']);
      if (service !== 'events' && t.eventbridge_parameters) refuse(ctx, 'eventbridge_parameters apply to EventBridge event buses only', ['eventbridge_parameters']);
      if (service === 'ecs' && !t.ecs_parameters) refuse(ctx, 'an ECS target needs ecs_parameters {task_definition_arn, …}', ['ecs_parameters']);
      if (service !== 'ecs' && t.ecs_parameters) refuse(ctx, 'ecs_parameters apply to ECS clusters only', ['ecs_parameters']);
      if (service === 'ecs' && t.input !== undefined) refuse(ctx, 'an ECS target takes no input: RunTask starts the task definition as registered', ['input']);
      if (t.input !== undefined && JSON_INPUT_SERVICES.includes(service)) {
        let value: unknown;
        try {
          value = JSON.parse(t.input);
        } catch {
          return refuse(ctx, `a ${service} target needs JSON input`, ['input']);
        }
        if (service === 'events' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
          refuse(ctx, 'an EventBridge target needs a JSON object as input (it becomes the event detail)', ['input']);
        }
      }
    });
}

/**
 * An ARN of a service no driver delivers to: Kinesis, SageMaker, a universal target of a service
 * outside `UNIVERSAL_SERVICES`… (only its service part is read). Pure.
 */
export function isOtherServiceArn(arn: string): boolean {
  const universal = parseUniversalArn(arn);
  if (universal) return universal.sdkService === null;
  const service = /^arn:[^:]*:([^:]+):/.exec(arn)?.[1];
  return service !== undefined && !(AWS_TARGET_SERVICES as readonly string[]).includes(service);
}

/** `invocation_target` of an `aws` schedule as a save through the product API takes it (SPEC §13.2): other services' ARNs are refused. */
export const AwsInvocationTargetSchema = awsTargetSchema('refuse');
/**
 * `invocation_target` of an `aws` schedule as stored and answered (SPEC §14): also an ARN of another
 * service that the EventBridge API stored unchanged; its fires are `unsupported_target`.
 */
export const StoredAwsInvocationTargetSchema = awsTargetSchema('store');
export type AwsInvocationTarget = z.infer<typeof AwsInvocationTargetSchema>;

// ---------------------------------------------------------------------------------------------
// §12.3 dead letter

/** AWS `DeadLetterConfig.Arn`: a standard SQS queue (EVENTBRIDGE.md §3.1; a FIFO name cannot match). */
export const SQS_DEAD_LETTER_ARN = /^arn:aws(-[a-z]+)*:sqs:[a-z0-9-]+:\d{12}:[a-zA-Z0-9_-]+$/;

/** `dead_letter` (SPEC §12.3). */
export const DeadLetterConfigSchema = z
  .object({
    arn: z.string().max(1600).regex(SQS_DEAD_LETTER_ARN, 'dead_letter.arn must be a standard SQS queue ARN: arn:aws:sqs:<region>:<account>:<queue>'),
    /** SPEC §13.5: the role its sends assume; absent: the `aws` target's `role_arn`. */
    role_arn: z.string().max(1600).regex(ROLE_ARN, 'dead_letter.role_arn must be an IAM role ARN: arn:aws:iam::<account>:role/<name>').optional(),
  })
  .strict();
export type DeadLetterConfig = z.infer<typeof DeadLetterConfigSchema>;

// ---------------------------------------------------------------------------------------------
// run results (SPEC §13)

/**
 * `result` of an AWS attempt (SPEC §13.2): on success the service and what it answered
 * (`message_id` SQS/SNS, `execution_arn` Step Functions, `event_id` EventBridge, `task_arns` ECS;
 * Lambda answers only its request id); on failure the AWS error code (`QueueDoesNotExist`,
 * `ThrottlingException`, …) and its message.
 */
export const AwsResultSchema = z.union([
  z.strictObject({
    service: z.enum(AWS_TARGET_SERVICES),
    request_id: z.string().optional(),
    message_id: z.string().optional(),
    execution_arn: z.string().optional(),
    event_id: z.string().optional(),
    task_arns: z.array(z.string()).optional(),
    repeated_delivery: RepeatedDelivery,
  }),
  z.strictObject({ error: z.string(), message: z.string(), request_id: z.string().optional(), repeated_delivery: RepeatedDelivery }),
  /**
   * A universal target's call (SPEC §14): `service` `aws-sdk:<service>`, the SDK operation called
   * (`PutItem`) and what it answered (its output without the SDK's metadata, as JSON, at most 1 KiB).
   */
  z.strictObject({
    service: z.string().startsWith('aws-sdk:'),
    operation: z.string(),
    request_id: z.string().optional(),
    response_excerpt: z.string().optional(),
    repeated_delivery: RepeatedDelivery,
  }),
]);
export type AwsResult = z.infer<typeof AwsResultSchema>;

// ---------------------------------------------------------------------------------------------
// words (SPEC §10)

/** An AWS service's resource in words, by the ARN's service (SPEC §13.2). */
const RESOURCE_WORDS: Record<AwsTargetService, string> = {
  sqs: 'SQS queue',
  sns: 'SNS topic',
  lambda: 'Lambda function',
  states: 'Step Functions state machine',
  events: 'EventBridge event bus',
  ecs: 'ECS cluster',
};

/** What each AWS service answered with, in words (SPEC §13.2 `result`). */
export const AWS_ANSWER_WORDS: Record<AwsTargetService, string> = {
  sqs: 'SQS message',
  sns: 'SNS message',
  lambda: 'Lambda invoked',
  states: 'Step Functions execution',
  events: 'EventBridge event',
  ecs: 'ECS task',
};

/**
 * "SQS queue orders (eu-west-1)", "SNS FIFO topic alerts.fifo (us-east-1)", "Lambda function resize:prod
 * (eu-central-1)", "AWS SDK call dynamodb:putItem (in the schedule's region)"; an ARN of another service (stored through the EventBridge API, SPEC §14) as
 * "AWS kinesis target (not delivered)".
 */
export function awsTargetLabel(arn: string): string {
  const u = parseUniversalArn(arn);
  if (u) return `AWS SDK call ${u.service}:${u.action}${u.sdkService ? " (in the schedule's region)" : ' (not delivered)'}`;
  const p = parseTargetArn(arn);
  if ('problem' in p) {
    const service = /^arn:[^:]*:([^:]+):/.exec(arn)?.[1];
    return `AWS ${service ?? 'service'} target (not delivered)`;
  }
  const words = RESOURCE_WORDS[p.service];
  const kind = p.fifo ? words.replace(/ (queue|topic)$/, ' FIFO $1') : words;
  return `${kind} ${p.name} (${p.region})`;
}

/** What each fire of an aws target sends: "group orders-1 · custom input", "default event". */
function awsDetail(t: AwsInvocationTarget): string {
  return detailWords(
    t.sqs_parameters && `group ${t.sqs_parameters.message_group_id}`,
    t.eventbridge_parameters && `${t.eventbridge_parameters.source} · ${t.eventbridge_parameters.detail_type}`,
    t.ecs_parameters ? `task ${t.ecs_parameters.task_definition_arn.split('/').pop()}` : t.input === undefined ? 'default event' : parseUniversalArn(t.arn) ? 'parameters as input' : 'custom input',
  );
}

/** The `aws` target type (SPEC §13.2). */
export const AWS_TARGET = defineTargetContract({
  type: 'aws',
  save: AwsInvocationTargetSchema,
  stored: StoredAwsInvocationTargetSchema,
  results: AwsResultSchema.options,
  ...addressedBy('arn'),
  words: {
    title: 'AWS service',
    noun: 'an AWS target',
    choice: 'Send to SQS, SNS, Lambda, Step Functions, EventBridge or ECS, or call an AWS SDK action (universal target).',
    intro: 'Each fire calls the AWS service the ARN names (a universal target arn:aws:scheduler:::aws-sdk:<service>:<action> calls that action with the input as its parameters), with the org’s AWS credentials.',
    label: (t) => awsTargetLabel(t.arn),
    detail: awsDetail,
    notEditable: (t) =>
      isOtherServiceArn(t.arn) ? { title: 'Edited through the EventBridge API.', text: 'Its target is an AWS service this product does not deliver to; it is edited with UpdateSchedule.' } : null,
  },
});
