/**
 * The shapes every target type's `deliver` shares (SPEC §13): what the fire path passes in about the
 * fire, and what it gets back to record as the attempt's run.
 */
import type { AwsTargetService } from './contract';
import type { OccurrenceKey } from './default-event';

/** The fire an attempt belongs to: the same for every attempt of one occurrence, but `attempt`. */
export interface FireContext extends OccurrenceKey {
  /** 1 for the occurrence's first attempt, 2… for its retries (SPEC §12.2). */
  attempt: number;
  /** The schedule's org's 12-digit AWS account id (SPEC §14): the default event's `account`. */
  account: string;
  /** The schedule's ARN (`scheduleArn`): the default event's `resources[0]`, the dead letter's `SCHEDULE_ARN`. */
  scheduleArn: string;
  /** The default event's `region`. Default: the region of the worker's AWS SDK configuration. */
  region?: string;
}

/** What an http attempt sent (or, when refused before connecting, would have sent). */
export interface HttpSentRequest {
  type: 'http';
  method: 'POST' | 'PUT';
  url: string;
  /** Every header sent, names lowercase, the Standard Webhooks ones included. */
  headers: Record<string, string>;
  /** The body exactly as sent (and as signed). */
  body: string;
}

/** What an aws attempt sent: the AWS SDK command's input, as the SDK received it. */
export interface AwsSentRequest {
  type: 'aws';
  service: AwsTargetService;
  /** `SendMessage`, `Publish`, `Invoke`, `StartExecution`, `PutEvents` or `RunTask`. */
  operation: string;
  /** The region of the target ARN, where the call was sent. */
  region: string;
  /** The command input (a Lambda `Payload` as its text). */
  params: Record<string, unknown>;
}

export type SentRequest = HttpSentRequest | AwsSentRequest;

/**
 * The outcome of one attempt, for the fire path to record (SPEC §8.1, §13). `deliver` never throws
 * for a failed delivery: every failure is an outcome.
 */
export interface DeliveryOutcome<R, Q extends SentRequest = SentRequest> {
  /** The run's `status`: `success`, or `invocation_error` for every failure (SPEC §8.1). */
  status: 'success' | 'invocation_error';
  /** The run's `result` (SPEC §13.1 / §13.2). */
  result: R;
  /**
   * Whether the failure is transient: throttling, a 5xx or 429 answer, a timeout, a connection that
   * failed. SPEC §12.2 retries every failed attempt per the schedule's `retry_policy` whatever this
   * says; it tells logs, metrics and the dead letter's reader what kind of failure it was. False on success.
   */
  retryable: boolean;
  /** What was sent: the dead letter's message body when this is the last attempt (SPEC §12.3). */
  request: Q;
  /** The id receivers de-duplicate by: the `webhook-id` and the default event's `id` (`occurrenceId`). */
  deliveryId: string;
  /** Time spent in the attempt, in ms, from taking a pool slot to the answer (waiting for a slot excluded). */
  durationMs: number;
}
