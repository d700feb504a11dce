/**
 * THE REGISTRY of target types, server half (SPEC §13; STYLE §7): one driver per type, named once in
 * `BUILT_IN` below, next to its universal contract in lib/targets/contract.ts. The fire engine
 * (lib/engine), the save path and the dead letters know drivers only through `driverOf`; no code
 * outside lib/targets branches on a type's name.
 *
 * Public entry of lib/targets (STYLE §5): the registry, the driver interface, and the delivery
 * functions behind the drivers (build an attempt's request, send it through the process's bounded
 * pool, map the answer to the run's `result`). No database write here but the workflow catalog's,
 * through its gateway, in the caller's transaction.
 */
import { awsDriver } from './aws/driver';
import { deliverAws, type AwsDeliveryRequest, type AwsSentRequest } from './aws/deliver';
import type { InvocationTargetType } from './contract';
import type { DeliveryOutcome, TargetDriver } from './driver';
import type { AwsResult, HttpResult } from './contract';
import { deliverHttp, type HttpDeliveryRequest, type HttpSentRequest } from './http/deliver';
import { httpDriver } from './http/driver';
import { workflowDriver } from './workflow/driver';

/** Every target type's driver, by type: the compiler refuses a contract without its driver. */
const BUILT_IN = {
  workflow: workflowDriver,
  http: httpDriver,
  aws: awsDriver,
} satisfies { [T in InvocationTargetType]: TargetDriver };

const drivers = new Map<string, TargetDriver>();
for (const [type, driver] of Object.entries(BUILT_IN)) {
  // A driver serves the type its contract names: a registry line pairing a type with another's driver fails at load.
  if (driver.contract.type !== type) throw new Error(`the ${type} entry of the driver registry holds the ${driver.contract.type} driver`);
  drivers.set(type, driver);
}

/** The driver of target type `type`, or undefined when none is registered (its fires are `unsupported_target`). */
export function driverOf(type: string): TargetDriver | undefined {
  return drivers.get(type);
}

/**
 * Register a driver for a type no built-in driver serves (a test's `memory` target, a plug-in), until
 * the returned function unregisters it. Refuses a type already registered: built-in drivers cannot
 * be replaced.
 */
export function registerTargetDriver(driver: TargetDriver): () => void {
  const { type } = driver.contract;
  if (drivers.has(type)) throw new Error(`target type "${type}" already has a driver`);
  drivers.set(type, driver);
  return () => {
    if (drivers.get(type) === driver) drivers.delete(type);
  };
}

/** What an attempt of a built-in after-commit type sent. */
export type SentRequest = HttpSentRequest | AwsSentRequest;

/**
 * What a dead letter keeps of the request an attempt sent (SPEC §12.3): the request, through the
 * `redact.sent` of the driver whose request it is (a webhook's header values masked but for the
 * delivery's own public ones, SPEC §13.5; an AWS request as it is). Pure, idempotent.
 */
export function redactForDeadLetter<Q extends { type: string }>(request: Q): Q {
  const driver = drivers.get(request.type);
  return driver ? (driver.redact.sent(request) as Q) : request;
}

export type DeliveryRequest = ({ type: 'http' } & HttpDeliveryRequest) | ({ type: 'aws' } & AwsDeliveryRequest);
/** The outcome of `deliver` for each request type. */
export type OutcomeOf<R extends DeliveryRequest> = R extends { type: 'http' } ? DeliveryOutcome<HttpResult, HttpSentRequest> : DeliveryOutcome<AwsResult, AwsSentRequest>;

/**
 * Deliver one built attempt to an `http` (SPEC §13.1, `deliverHttp`) or `aws` (SPEC §13.2,
 * `deliverAws`) target, without the engine: the delivery functions behind the two drivers, for tools
 * and tests. Never rejects for a failed delivery.
 */
export function deliver<R extends DeliveryRequest>(req: R): Promise<OutcomeOf<R>> {
  const send: { [T in DeliveryRequest['type']]: (r: Extract<DeliveryRequest, { type: T }>) => Promise<unknown> } = { http: deliverHttp, aws: deliverAws };
  return (send[req.type] as (r: R) => Promise<unknown>)(req) as Promise<OutcomeOf<R>>;
}

export * from './contract';
export type {
  AfterCommitDriver,
  AttemptContext,
  DeliveryDeps,
  DeliveryOutcome,
  DriverOutcome,
  FactReader,
  FireContext,
  InTransactionAttempt,
  InTransactionDriver,
  ParsedTarget,
  ScheduleIdentity,
  SchedulerFactName,
  SchedulerFactSources,
  SchedulerFacts,
  SchedulerRef,
  TargetDriver,
} from './driver';
export { defineDriver, fireContextOf, recordedTarget, watchAttributes } from './driver';
export { backfillTrigger, defineTargetContract, refuse, RUN_STATUSES, RUN_TRIGGERS, triggerParts, type FireTrigger, type RunStatus, type RunTrigger, type TargetIssueCode } from './define';
export { deliverHttp, buildWebhookRequest, sendHttpRequest, WEBHOOK_USER_AGENT, type HttpDeliveryRequest, type HttpSentRequest } from './http/deliver';
export { deliverAws, classifyAwsError, AWS_OPERATIONS, type AwsDeliveryRequest, type AwsSentRequest } from './aws/deliver';
export { defaultEvent, occurrenceId, scheduleArn, type DefaultEvent, type OccurrenceKey } from './default-event';
export {
  addressVerdict,
  checkDestinationAtSave,
  classifyAddress,
  METADATA_ADDRESSES,
  NO_ALLOWED_HOSTS,
  resolveDestination,
  type HostResolver,
  type ResolvedAddress,
} from './http/destination';
export {
  buildDeadLetterMessage,
  deadLetterError,
  sendDeadLetter,
  DEAD_LETTER_ATTRIBUTES,
  EXHAUSTED_RETRY_CONDITIONS,
  SQS_MESSAGE_MAX_BYTES,
  type DeadLetterOutcome,
  type DeadLetterRequest,
  deadLetterRole,
} from './aws/dead-letter-queue';
export { arnAccount, checkAwsArnAtSave, foreignArn, planAwsAuth, ASSUMED_REFRESH_MS, type AwsAuth, type AwsRefusal } from './aws/credentials';
export { sdkRegion, FALLBACK_REGION } from './aws/clients';
export { createDeliveryPool, DeliveryCancelled, type DeliveryCaps, type DeliveryKey, type DeliveryPool } from './pool';
export { generateSigningSecret, SIGNING_SECRET_PREFIX, signingSecretHint } from './http/signing-secret';
