/**
 * Public entry of the delivery layer (SPEC §13, §12.3; STYLE §5): one module per target type
 * beyond the workflow catalog — build an attempt's request, send it through the process's bounded
 * pool, map the answer to the run's `result`. No database: the fire path claims the attempt,
 * calls `deliver` outside its transaction, and records the outcome after (docs/architecture.md).
 */
import { deliverAws, type AwsDeliveryRequest } from './aws';
import type { AwsResult, HttpResult } from './contract';
import { deliverHttp, type HttpDeliveryRequest } from './http';
import type { AwsSentRequest, DeliveryOutcome, HttpSentRequest } from './outcome';

export type DeliveryRequest = ({ type: 'http' } & HttpDeliveryRequest) | ({ type: 'aws' } & AwsDeliveryRequest);

/** The outcome of `deliver` for each request type. */
export type OutcomeOf<R extends DeliveryRequest> = R extends { type: 'http' } ? DeliveryOutcome<HttpResult, HttpSentRequest> : DeliveryOutcome<AwsResult, AwsSentRequest>;

/**
 * Deliver one attempt to an `http` (SPEC §13.1, `deliverHttp`) or `aws` (SPEC §13.2, `deliverAws`)
 * target. Resolves to the attempt's outcome — run status, `result`, `retryable`, the request sent
 * and the delivery id — and never rejects for a failed delivery; it rejects only on a programming
 * error (no signing secret, an ARN the contract would have refused).
 */
export function deliver<R extends DeliveryRequest>(req: R): Promise<OutcomeOf<R>> {
  switch (req.type) {
    case 'http':
      return deliverHttp(req) as Promise<OutcomeOf<R>>;
    case 'aws':
      return deliverAws(req) as Promise<OutcomeOf<R>>;
    default:
      return req satisfies never;
  }
}

export * from './contract';
export { deliverHttp, buildWebhookRequest, WEBHOOK_USER_AGENT, type HttpDeliveryRequest } from './http';
export { deliverAws, classifyAwsError, AWS_OPERATIONS, type AwsDeliveryRequest } from './aws';
export { defaultEvent, occurrenceId, scheduleArn, type DefaultEvent, type OccurrenceKey } from './default-event';
export {
  addressVerdict,
  checkDestinationAtSave,
  classifyAddress,
  METADATA_ADDRESSES,
  resolveDestination,
  type HostResolver,
  type ResolvedAddress,
} from './destination';
export {
  buildDeadLetterMessage,
  redactForDeadLetter,
  REDACTED,
  deadLetterError,
  sendDeadLetter,
  DEAD_LETTER_ATTRIBUTES,
  EXHAUSTED_RETRY_CONDITIONS,
  SQS_MESSAGE_MAX_BYTES,
  type DeadLetterOutcome,
  type DeadLetterRequest,
} from './dead-letter';
export { sdkRegion, FALLBACK_REGION } from './aws-clients';
export { createDeliveryPool, type DeliveryPool } from './pool';
export { generateSigningSecret, SIGNING_SECRET_PREFIX, signingSecretHint } from './signing-secret';
export type { DeliveryOutcome, FireContext, SentRequest, HttpSentRequest, AwsSentRequest } from './outcome';
