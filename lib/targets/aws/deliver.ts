/**
 * `aws` targets (SPEC §13.2): one AWS SDK call per attempt, chosen by the ARN's service, sent through
 * the process's bounded pool: SQS `SendMessage`, SNS `Publish`, Lambda `Invoke` (InvocationType
 * `Event`), Step Functions `StartExecution`, EventBridge `PutEvents`, ECS `RunTask`.
 */
import { RunTaskCommand, type RunTaskCommandInput } from '@aws-sdk/client-ecs';
import { PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { StartExecutionCommand, type StartExecutionCommandInput } from '@aws-sdk/client-sfn';
import { PublishCommand, type PublishCommandInput } from '@aws-sdk/client-sns';
import { GetQueueUrlCommand, SendMessageCommand, type SendMessageCommandInput, type SQSClient } from '@aws-sdk/client-sqs';
import { defaultEvent, occurrenceId } from '../default-event';
import type { DeliveryOutcome, FireContext } from '../driver';
import type { DeliveryPool } from '../pool';
import { awsClient, sdkRegion } from './clients';
import { assumeOrRefuse, roleKey, type AwsAuth } from './credentials';
import { classifyAwsError, THROTTLING, type AwsFailure } from './errors';
import { parseTargetArn, parseUniversalArn, type AwsInvocationTarget, type AwsResult, type AwsTargetService, type ParsedTargetArn } from './contract';
import { callUniversal, operationName } from './universal';

/** What an aws attempt sent: the AWS SDK command's input, as the SDK received it. */
export interface AwsSentRequest {
  type: 'aws';
  /** The ARN's service; `aws-sdk:<service>` for a universal target (SPEC §14). */
  service: AwsTargetService | `aws-sdk:${string}`;
  /** `SendMessage`, `Publish`, `Invoke`, `StartExecution`, `PutEvents` or `RunTask`; a universal target's SDK operation (`PutItem`). */
  operation: string;
  /** The region of the target ARN (a universal target's: the schedule's), where the call was sent. */
  region: string;
  /** The command input (a Lambda `Payload` as its text). */
  params: Record<string, unknown>;
}

export interface AwsDeliveryRequest {
  target: AwsInvocationTarget;
  fire: FireContext;
  /**
   * The credentials to deliver with (SPEC §13.5, `planAwsAuth`): an org's assumed role, or the
   * worker's own. Absent: the worker's own (tools and tests that call `deliver` directly).
   */
  auth?: AwsAuth;
  /** The process's delivery pool (`createDeliveryPool`), whose slot the attempt waits for. */
  pool: DeliveryPool;
}

/** The SDK operation each service's attempt calls. */
export const AWS_OPERATIONS: Record<AwsTargetService, string> = {
  sqs: 'SendMessage',
  sns: 'Publish',
  lambda: 'Invoke',
  states: 'StartExecution',
  events: 'PutEvents',
  ecs: 'RunTask',
};

export { classifyAwsError, type AwsFailure } from './errors';

/** `GetQueueUrl` answers, per credentials and queue ARN (a queue's URL never changes; whether it is found depends on who asks). */
const queueUrls = new Map<string, string>();

/** The key of `auth`'s credentials in the caches of clients and queue URLs. */
function authKey(auth: AwsAuth | undefined): string {
  return auth?.kind === 'role' ? roleKey(auth) : 'worker';
}

async function queueUrl(client: SQSClient, auth: AwsAuth | undefined, arn: string, parsed: ParsedTargetArn): Promise<string> {
  const key = `${authKey(auth)}\u0000${arn}`;
  let url = queueUrls.get(key);
  if (!url) {
    const res = await client.send(new GetQueueUrlCommand({ QueueName: parsed.name, QueueOwnerAWSAccountId: parsed.account }));
    if (!res.QueueUrl) throw Object.assign(new Error(`GetQueueUrl answered no URL for ${arn}`), { name: 'QueueDoesNotExist' });
    url = res.QueueUrl;
    queueUrls.set(key, url);
  }
  return url;
}

/**
 * Send `body` to an SQS queue (by ARN): `SendMessage` after `GetQueueUrl` (cached). A FIFO queue
 * gets `messageGroupId` and `deduplicationId` (SQS drops a repeat within 5 minutes). Shared by
 * the `sqs` target and the dead letter (SPEC §12.3). `params` is filled in as far as it got.
 * Throws what the SDK throws.
 */
export async function sendToQueue(opts: {
  arn: string;
  /** The credentials (SPEC §13.5); absent: the worker's own. */
  auth?: AwsAuth;
  body: string;
  messageGroupId?: string;
  deduplicationId?: string;
  attributes?: SendMessageCommandInput['MessageAttributes'];
  params: Record<string, unknown>;
}): Promise<{ messageId?: string; requestId?: string }> {
  const parsed = parseTargetArn(opts.arn);
  if ('problem' in parsed || parsed.service !== 'sqs') throw Object.assign(new Error(`${opts.arn} is not an SQS queue ARN`), { name: 'InvalidParameterValue', $metadata: { httpStatusCode: 400 } });
  const client = awsClient('sqs', parsed.region, opts.auth);
  const input: SendMessageCommandInput = {
    QueueUrl: '',
    MessageBody: opts.body,
    ...(opts.attributes ? { MessageAttributes: opts.attributes } : {}),
    ...(parsed.fifo ? { MessageGroupId: opts.messageGroupId, MessageDeduplicationId: opts.deduplicationId } : {}),
  };
  Object.assign(opts.params, input);
  delete opts.params.QueueUrl;
  input.QueueUrl = await queueUrl(client, opts.auth, opts.arn, parsed);
  Object.assign(opts.params, { QueueUrl: input.QueueUrl });
  const res = await client.send(new SendMessageCommand(input));
  return { messageId: res.MessageId, requestId: res.$metadata.requestId };
}

/**
 * Deliver one attempt to an `aws` target (SPEC §13.2). The payload is `input`, else the default
 * event (SPEC §13.3) as JSON. Per service:
 * - `sqs`: `SendMessage`; FIFO queues with `MessageGroupId` = `sqs_parameters.message_group_id` and
 *   `MessageDeduplicationId` = the delivery id. `result.message_id`.
 * - `sns`: `Publish` (FIFO topics as SQS). `result.message_id`.
 * - `lambda`: `Invoke` with InvocationType `Event` (asynchronous: function errors are the
 *   function's, not the attempt's). `result.request_id`.
 * - `states`: `StartExecution` named by the delivery id, so a repeated attempt of the same
 *   occurrence starts no second execution. `result.execution_arn`.
 * - `events`: `PutEvents` with `eventbridge_parameters`' source and detail type, `Resources` = the
 *   schedule ARN, `Time` = `scheduled_for`. `result.event_id`; a failed entry is the failure.
 * - `ecs`: `RunTask` of `ecs_parameters` with `startedBy` = the delivery id. `result.task_arns`;
 *   RunTask's `failures` without a started task are the failure.
 * - a universal target (`arn:aws:scheduler:::aws-sdk:<service>:<apiAction>`, SPEC §14): the
 *   service's SDK command of that action with `input` as its parameters, in the schedule's region
 *   (`callUniversal`). `result` `{service: "aws-sdk:<service>", operation, request_id, response_excerpt}`.
 * Failures: `{error: <AWS error code>, message}` (`classifyAwsError`). With an assumed role
 * (`auth.kind === 'role'`, SPEC §13.5) the role is assumed first, inside the attempt's pool slot; a
 * refusal is `{error: "assume_role_failed", message: <AWS's message>}` and nothing else is sent.
 * Never throws.
 */
export async function deliverAws(req: AwsDeliveryRequest): Promise<DeliveryOutcome<AwsResult, AwsSentRequest>> {
  const { target, fire } = req;
  const deliveryId = occurrenceId(fire);
  const universal = parseUniversalArn(target.arn);
  if (universal) {
    const { sdkService } = universal;
    if (sdkService === null || target.input === undefined) throw new Error(`not a universal target the product calls: ${target.arn}`);
    // SPEC §14: a universal ARN names no region; the call goes to the schedule's (the default event's).
    const region = fire.region ?? (await sdkRegion());
    const request: AwsSentRequest = { type: 'aws', service: `aws-sdk:${universal.service}`, operation: operationName(universal.action), region, params: {} };
    return attempt(req, request, deliveryId, () => callUniversal({ ...universal, sdkService }, target.input!, region, req.auth, request));
  }
  const parsed = parseTargetArn(target.arn);
  if ('problem' in parsed) throw new Error(`not a supported target ARN: ${parsed.problem}`);
  const payload = target.input ?? JSON.stringify(defaultEvent({ ...fire, region: fire.region ?? (await sdkRegion()) }));
  const request: AwsSentRequest = { type: 'aws', service: parsed.service, operation: AWS_OPERATIONS[parsed.service], region: parsed.region, params: {} };
  return attempt(req, request, deliveryId, () => call(parsed, target, fire, deliveryId, payload, request.params, req.auth));
}

/**
 * One attempt in a slot of the process's pool: the org's role assumed first (SPEC §13.5; a refusal
 * is `assume_role_failed` and nothing else is sent), then `send`; what it throws becomes the failed
 * attempt's `{error: <AWS error code>, message}` (`classifyAwsError`). Never throws.
 */
function attempt(req: AwsDeliveryRequest, request: AwsSentRequest, deliveryId: string, send: () => Promise<AwsResult>): Promise<DeliveryOutcome<AwsResult, AwsSentRequest>> {
  return req.pool.run(async () => {
    const started = performance.now();
    let outcome: { ok: true; result: AwsResult } | { ok: false; failure: AwsFailure };
    const assumed = req.auth?.kind === 'role' ? await assumeOrRefuse(req.auth) : ({ ok: true } as const);
    if (!assumed.ok) {
      outcome = { ok: false, failure: assumed };
    } else {
      try {
        outcome = { ok: true, result: await send() };
      } catch (thrown) {
        outcome = { ok: false, failure: classifyAwsError(thrown) };
      }
    }
    return {
      status: outcome.ok ? 'success' : 'invocation_error',
      result: outcome.ok ? outcome.result : outcome.failure.result,
      retryable: outcome.ok ? false : outcome.failure.retryable,
      request,
      deliveryId,
      durationMs: Math.round(performance.now() - started),
    };
  });
}

/** One SDK call; fills `params` with the command input before sending. Throws on failure. */
async function call(
  parsed: ParsedTargetArn,
  target: AwsInvocationTarget,
  fire: FireContext,
  deliveryId: string,
  payload: string,
  params: Record<string, unknown>,
  auth: AwsAuth | undefined,
): Promise<AwsResult> {
  const service = parsed.service;
  switch (service) {
    case 'sqs': {
      const r = await sendToQueue({ arn: target.arn, auth, body: payload, messageGroupId: target.sqs_parameters?.message_group_id, deduplicationId: deliveryId, params });
      return { service, ...(r.requestId ? { request_id: r.requestId } : {}), ...(r.messageId ? { message_id: r.messageId } : {}) };
    }
    case 'sns': {
      const input: PublishCommandInput = {
        TopicArn: target.arn,
        Message: payload,
        ...(parsed.fifo ? { MessageGroupId: target.sqs_parameters?.message_group_id, MessageDeduplicationId: deliveryId } : {}),
      };
      Object.assign(params, input);
      const res = await awsClient('sns', parsed.region, auth).send(new PublishCommand(input));
      return { service, ...ids(res.$metadata.requestId), ...(res.MessageId ? { message_id: res.MessageId } : {}) };
    }
    case 'lambda': {
      Object.assign(params, { FunctionName: target.arn, InvocationType: 'Event', Payload: payload });
      const res = await awsClient('lambda', parsed.region, auth).send(
        new InvokeCommand({ FunctionName: target.arn, InvocationType: 'Event', Payload: new TextEncoder().encode(payload) }),
      );
      return { service, ...ids(res.$metadata.requestId) };
    }
    case 'states': {
      const input: StartExecutionCommandInput = { stateMachineArn: target.arn, name: deliveryId, input: payload };
      Object.assign(params, input);
      const res = await awsClient('states', parsed.region, auth).send(new StartExecutionCommand(input));
      return { service, ...ids(res.$metadata.requestId), ...(res.executionArn ? { execution_arn: res.executionArn } : {}) };
    }
    case 'events': {
      const eb = target.eventbridge_parameters!;
      const input: PutEventsCommandInput = {
        Entries: [{ EventBusName: target.arn, Source: eb.source, DetailType: eb.detail_type, Detail: payload, Resources: [fire.scheduleArn], Time: fire.scheduledFor }],
      };
      Object.assign(params, { Entries: input.Entries!.map((e) => ({ ...e, Time: fire.scheduledFor.toISOString() })) });
      const res = await awsClient('events', parsed.region, auth).send(new PutEventsCommand(input));
      const entry = res.Entries?.[0];
      if ((res.FailedEntryCount ?? 0) > 0 || !entry?.EventId) {
        throw Object.assign(new Error(entry?.ErrorMessage ?? 'PutEvents did not accept the event'), {
          name: entry?.ErrorCode ?? 'PutEventsFailed',
          $metadata: { httpStatusCode: 200, requestId: res.$metadata.requestId },
          ...(entry?.ErrorCode && THROTTLING.has(entry.ErrorCode) ? { $retryable: { throttling: true } } : {}),
          ...(entry?.ErrorCode === 'InternalFailure' ? { $fault: 'server' } : {}),
        });
      }
      return { service, ...ids(res.$metadata.requestId), event_id: entry.EventId };
    }
    case 'ecs': {
      const p = target.ecs_parameters!;
      const vpc = p.network_configuration?.awsvpc_configuration;
      const input: RunTaskCommandInput = {
        cluster: target.arn,
        taskDefinition: p.task_definition_arn,
        count: p.task_count ?? 1,
        startedBy: deliveryId,
        ...(p.launch_type ? { launchType: p.launch_type } : {}),
        ...(p.platform_version ? { platformVersion: p.platform_version } : {}),
        ...(p.group ? { group: p.group } : {}),
        ...(vpc
          ? { networkConfiguration: { awsvpcConfiguration: { subnets: vpc.subnets, securityGroups: vpc.security_groups, assignPublicIp: vpc.assign_public_ip } } }
          : {}),
      };
      Object.assign(params, input);
      const res = await awsClient('ecs', parsed.region, auth).send(new RunTaskCommand(input));
      const taskArns = (res.tasks ?? []).flatMap((t) => (t.taskArn ? [t.taskArn] : []));
      if (taskArns.length === 0) {
        const f = res.failures?.[0];
        throw Object.assign(new Error(f ? `${f.reason ?? 'failed'}${f.detail ? `: ${f.detail}` : ''}${f.arn ? ` (${f.arn})` : ''}` : 'RunTask started no task'), {
          name: 'RunTaskFailed',
          $metadata: { httpStatusCode: 200, requestId: res.$metadata.requestId },
        });
      }
      return { service, ...ids(res.$metadata.requestId), task_arns: taskArns };
    }
    default:
      return service satisfies never;
  }
}

function ids(requestId: string | undefined): { request_id?: string } {
  return requestId ? { request_id: requestId } : {};
}
