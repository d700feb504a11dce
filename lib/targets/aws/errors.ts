/**
 * AWS SDK failures as a run records them (SPEC §13.2): `{error: <AWS error code>, message}` and
 * whether the failure is transient.
 */
import { toError } from '../../errors';

/** Error codes AWS answers when it throttles (retryable, SPEC §13.2). */
export const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
  'KMSThrottlingException',
  'AWS.SimpleQueueService.RequestThrottled',
]);

/** An AWS failure as the run records it, with whether it is transient. */
export interface AwsFailure {
  result: { error: string; message: string; request_id?: string };
  retryable: boolean;
}

/**
 * Map anything an SDK call threw to `{error: <AWS error code>, message}` (SPEC §13.2). Retryable:
 * throttling codes, HTTP 429 and 5xx (`$fault: "server"`), and failures without an answer
 * (network errors, timeouts). Client errors (a queue that does not exist, access denied, a
 * validation error) are not.
 */
export function classifyAwsError(thrown: unknown): AwsFailure {
  const err = toError(thrown) as Error & {
    code?: string;
    $fault?: 'client' | 'server';
    $metadata?: { httpStatusCode?: number; requestId?: string };
    $retryable?: { throttling?: boolean };
  };
  const code = err.name && err.name !== 'Error' ? err.name : (err.code ?? 'InternalFailure');
  const status = err.$metadata?.httpStatusCode;
  const answered = status !== undefined;
  const retryable =
    THROTTLING.has(code) || err.$retryable?.throttling === true || status === 429 || (status !== undefined && status >= 500) || err.$fault === 'server' || !answered;
  const requestId = err.$metadata?.requestId;
  return {
    result: { error: code, message: (err.message || code).slice(0, 1000), ...(requestId ? { request_id: requestId } : {}) },
    retryable: retryable && code !== 'CredentialsProviderError',
  };
}
