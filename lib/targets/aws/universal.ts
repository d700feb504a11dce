/**
 * Universal targets (SPEC §14): `arn:aws:scheduler:::aws-sdk:<service>:<apiAction>` called with the AWS
 * SDK for JavaScript v3 client of `<service>`, `Input` (a JSON object, checked at save) as the
 * command's input, in the schedule's region, with the org's credentials (SPEC §13.5, the same path as
 * every `aws` delivery: `deliverAws`).
 *
 * apiAction → command by name, with a check: `putItem` → the module's `PutItemCommand` (first letter
 * upper-cased), else the one command whose name matches case-insensitively (AWS writes
 * `getQueueURL`, the SDK `GetQueueUrlCommand`); it must be a command class (it has
 * `resolveMiddleware`). No such command: the attempt fails `UnknownOperationException`, nothing is
 * sent (decision 311).
 */
import type { AwsAuth } from './credentials';
import { cachedClient } from './clients';
import type { AwsResult, UniversalService, UniversalTargetArn } from './contract';

/** A client or command class of an SDK module, as this file uses it. */
type SdkClient = { send(command: unknown): Promise<Record<string, unknown> & { $metadata?: { requestId?: string } }> };
type SdkClass = new (arg: object) => unknown;

/**
 * The SDK module and client class of each service (SPEC §14), loaded on the first universal call to
 * it (the worker does not load eleven SDKs it may never call).
 */
const SDK: { [S in UniversalService]: { load: () => Promise<object>; client: string } } = {
  sqs: { load: () => import('@aws-sdk/client-sqs'), client: 'SQSClient' },
  sns: { load: () => import('@aws-sdk/client-sns'), client: 'SNSClient' },
  lambda: { load: () => import('@aws-sdk/client-lambda'), client: 'LambdaClient' },
  sfn: { load: () => import('@aws-sdk/client-sfn'), client: 'SFNClient' },
  eventbridge: { load: () => import('@aws-sdk/client-eventbridge'), client: 'EventBridgeClient' },
  ecs: { load: () => import('@aws-sdk/client-ecs'), client: 'ECSClient' },
  dynamodb: { load: () => import('@aws-sdk/client-dynamodb'), client: 'DynamoDBClient' },
  kinesis: { load: () => import('@aws-sdk/client-kinesis'), client: 'KinesisClient' },
  firehose: { load: () => import('@aws-sdk/client-firehose'), client: 'FirehoseClient' },
  cloudwatchlogs: { load: () => import('@aws-sdk/client-cloudwatch-logs'), client: 'CloudWatchLogsClient' },
  ses: { load: () => import('@aws-sdk/client-ses'), client: 'SESClient' },
};

/** `putItem` → `PutItem`: the SDK's operation name as AWS's universal ARNs write it in camelCase. */
export function operationName(action: string): string {
  return `${action.charAt(0).toUpperCase()}${action.slice(1)}`;
}

const isCommandClass = (v: unknown): v is SdkClass => typeof v === 'function' && typeof (v as { prototype?: { resolveMiddleware?: unknown } }).prototype?.resolveMiddleware === 'function';

/**
 * The client and command classes of `service`'s `action`, or null when its SDK has no such command.
 * `operation` is the command's name without `Command` (`PutItem`). Throws only when the module fails to load.
 */
export async function universalCommand(service: UniversalService, action: string): Promise<{ Client: SdkClass; Command: SdkClass; operation: string } | null> {
  const entry = SDK[service];
  const mod = (await entry.load()) as Record<string, unknown>;
  const Client = mod[entry.client];
  if (typeof Client !== 'function') throw new Error(`@aws-sdk client of ${service} exports no ${entry.client}`);
  const wanted = `${operationName(action)}Command`;
  let name: string | undefined = isCommandClass(mod[wanted]) ? wanted : undefined;
  name ??= Object.keys(mod).find((k) => k.toLowerCase() === wanted.toLowerCase() && isCommandClass(mod[k]));
  if (!name) return null;
  return { Client: Client as SdkClass, Command: mod[name] as SdkClass, operation: name.slice(0, -'Command'.length) };
}

/** An AWS-shaped failure (classifyAwsError reads `name`, the status says it was not sent or not retryable). */
function failure(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 } });
}

/** Largest `response_excerpt`, in characters. */
const EXCERPT_MAX = 1024;

/**
 * Call a universal target once: `input` (the substituted Input, a JSON object) as the command's
 * input, in `region`, with `auth`'s credentials (already assumed by the caller). Fills `sent` with
 * the operation and parameters before sending. Returns the `aws-sdk:<service>` result; throws the
 * SDK's error (AWS's code and message), `UnknownOperationException` when the service's SDK has no
 * such action, or `SerializationException` when the input does not fit the command (nothing sent).
 */
export async function callUniversal(
  u: UniversalTargetArn & { sdkService: UniversalService },
  input: string,
  region: string,
  auth: AwsAuth | undefined,
  sent: { operation: string; params: Record<string, unknown> },
): Promise<AwsResult> {
  const service = `aws-sdk:${u.service}` as const;
  let params: unknown;
  try {
    params = JSON.parse(input);
  } catch {
    params = null;
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw failure('SerializationException', `the input of ${service}:${u.action} is not a JSON object`);
  Object.assign(sent.params, params);
  const found = await universalCommand(u.sdkService, u.action);
  if (!found) {
    throw failure('UnknownOperationException', `${u.action} is not an operation of ${u.service}: the AWS SDK for JavaScript v3 client of ${u.sdkService} has no ${operationName(u.action)}Command`);
  }
  sent.operation = found.operation;
  const client = cachedClient(`aws-sdk:${u.sdkService}`, (config) => new found.Client(config) as SdkClient, region, auth);
  let res: Awaited<ReturnType<SdkClient['send']>>;
  try {
    res = await client.send(new found.Command(params as object));
  } catch (thrown) {
    // The SDK's serializer throws a TypeError for a member of the wrong JSON type (a number for a
    // date, …) before anything is sent: the input does not fit, which another attempt will not change.
    if (thrown instanceof TypeError) throw failure('SerializationException', `the input does not fit ${found.operation}: ${thrown.message}`);
    throw thrown;
  }
  const { $metadata, ...output } = res;
  const excerpt = JSON.stringify(output);
  return {
    service,
    operation: found.operation,
    ...($metadata?.requestId ? { request_id: $metadata.requestId } : {}),
    ...(excerpt && excerpt !== '{}' ? { response_excerpt: excerpt.slice(0, EXCERPT_MAX) } : {}),
  };
}
