/**
 * SQS dead letters (SPEC §12.3): an exhausted occurrence is sent to its schedule's `dead_letter.arn`
 * with the request its last attempt sent as the message body and the attributes EventBridge
 * Scheduler sets (EVENTBRIDGE.md §8). The dead-letter list in the database is the fire path's; this
 * only sends the message.
 */
import type { MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { OrgAws } from '../../auth';
import type { DeliveryPool } from '../pool';
import { SQS_DEAD_LETTER_ARN } from './contract';
import { assumeOrRefuse, planAwsAuth } from './credentials';
import { classifyAwsError, sendToQueue } from './deliver';

/** SQS's limit on one message, body and attributes together, in bytes (256 KiB). */
export const SQS_MESSAGE_MAX_BYTES = 256 * 1024;

/** `EXHAUSTED_RETRY_CONDITION` values, by the run's `exhausted` reason (SPEC §8.1). */
export const EXHAUSTED_RETRY_CONDITIONS = {
  maximum_retry_attempts: 'MaximumRetryAttempts',
  maximum_event_age: 'MaximumEventAgeInSeconds',
} as const;

/** The attribute names, in the order SPEC §12.3 lists them. */
export const DEAD_LETTER_ATTRIBUTES = [
  'ERROR_CODE',
  'ERROR_MESSAGE',
  'EXECUTION_ID',
  'EXHAUSTED_RETRY_CONDITION',
  'IS_PAYLOAD_TRUNCATED',
  'RETRY_ATTEMPTS',
  'SCHEDULED_TIME',
  'SCHEDULE_ARN',
  'TARGET_ARN',
] as const;

export interface DeadLetterRequest {
  /** `dead_letter.arn`: a standard SQS queue. */
  deadLetterArn: string;
  /** What the last attempt sent (its `DeliveryOutcome.request`, redacted), or the call it made. */
  request: object;
  /** The last attempt's failure: `result.error` and `result.message` (see `deadLetterError`). */
  errorCode: string;
  errorMessage: string;
  /** The last attempt's run id. */
  executionId: string;
  exhausted: keyof typeof EXHAUSTED_RETRY_CONDITIONS;
  /** Retries made after the first attempt (attempts − 1), ≥ 0. */
  retryAttempts: number;
  /** The occurrence instant (UTC). */
  scheduledFor: Date;
  scheduleArn: string;
  /** The target's ARN (aws), URL (http) or workflow ARN (SPEC §14). */
  targetArn: string;
  /** The process's delivery pool (`createDeliveryPool`), whose slot the send waits for. */
  pool: DeliveryPool;
  /**
   * Whose credentials send it (SPEC §13.5): the schedule's org's settings, the dead letter's role
   * (`deadLetterRole`), the schedule id (the role session's name) and
   * `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS`. Absent: the worker's own (tools and tests).
   */
  credentials?: { org: OrgAws; roleArn: string | null; scheduleId: string; workerOrgs: readonly string[] };
}

/**
 * The role a dead letter's SQS send assumes (SPEC §13.5): `dead_letter.role_arn`, else the stored
 * target's `role_arn` (an `aws` target's, as AWS uses the Target's RoleArn for its dead letters), else null.
 */
export function deadLetterRole(deadLetterRoleArn: string | null | undefined, storedTarget: unknown): string | null {
  if (deadLetterRoleArn) return deadLetterRoleArn;
  const role = typeof storedTarget === 'object' && storedTarget !== null ? (storedTarget as { role_arn?: unknown }).role_arn : undefined;
  return typeof role === 'string' && role ? role : null;
}

export type DeadLetterOutcome =
  | { ok: true; messageId?: string; requestId?: string; truncated: boolean }
  | { ok: false; error: string; message: string; retryable: boolean };

/** `ERROR_CODE` and `ERROR_MESSAGE` of a failed run's `result` (`{error, message?}` of every target type). */
export function deadLetterError(result: unknown): { errorCode: string; errorMessage: string } {
  const r = (typeof result === 'object' && result !== null ? result : {}) as { error?: unknown; message?: unknown; http_status?: unknown };
  const errorCode = typeof r.error === 'string' && r.error ? r.error : 'AWS.Scheduler.InternalServerError';
  const errorMessage = typeof r.message === 'string' && r.message ? r.message : errorCode;
  return { errorCode, errorMessage };
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** The longest prefix of `s` whose UTF-8 encoding fits `maxBytes` (never splits a character). */
function cutUtf8(s: string, maxBytes: number): string {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length <= maxBytes) return s;
  return new TextDecoder('utf-8').decode(bytes.subarray(0, maxBytes), { stream: true });
}

/** Characters SQS refuses in a message that JSON leaves raw (`\uFFFE`, `\uFFFF`), escaped as JSON does. */
function sqsSafe(json: string): string {
  return json.replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * The message of a dead letter: body = the request as JSON, cut to what fits SQS's 256 KiB together
 * with the attributes (then `IS_PAYLOAD_TRUNCATED` = `true`); every attribute of SPEC §12.3
 * (`RETRY_ATTEMPTS` a Number, the rest Strings; `ERROR_MESSAGE` cut to 1,000 characters). Pure.
 */
export function buildDeadLetterMessage(req: Omit<DeadLetterRequest, 'pool'>): { body: string; attributes: Record<string, MessageAttributeValue>; truncated: boolean } {
  const str = (v: string): MessageAttributeValue => ({ DataType: 'String', StringValue: v });
  const attributes: Record<(typeof DEAD_LETTER_ATTRIBUTES)[number], MessageAttributeValue> = {
    ERROR_CODE: str(req.errorCode.slice(0, 256) || 'AWS.Scheduler.InternalServerError'),
    ERROR_MESSAGE: str(req.errorMessage.slice(0, 1000) || req.errorCode),
    EXECUTION_ID: str(req.executionId),
    EXHAUSTED_RETRY_CONDITION: str(EXHAUSTED_RETRY_CONDITIONS[req.exhausted]),
    IS_PAYLOAD_TRUNCATED: str('false'),
    RETRY_ATTEMPTS: { DataType: 'Number', StringValue: String(req.retryAttempts) },
    SCHEDULED_TIME: str(req.scheduledFor.toISOString().replace(/\.\d{3}Z$/, 'Z')),
    SCHEDULE_ARN: str(req.scheduleArn),
    TARGET_ARN: str(req.targetArn),
  };
  // SQS counts each attribute's name, data type and value toward the message's size.
  const attributeBytes = Object.entries(attributes).reduce((n, [name, a]) => n + utf8(name) + utf8(a.DataType!) + utf8(a.StringValue!), 0);
  const full = sqsSafe(JSON.stringify(req.request));
  const room = SQS_MESSAGE_MAX_BYTES - attributeBytes;
  const truncated = utf8(full) > room;
  if (truncated) attributes.IS_PAYLOAD_TRUNCATED = str('true');
  // 'true' is one byte shorter than 'false', so the room computed above still holds.
  return { body: truncated ? cutUtf8(full, room) : full, attributes, truncated };
}

/**
 * Send a dead letter (SPEC §12.3) through the delivery pool. Never throws: a failed send answers
 * `{ok: false, error: <AWS error code>, message, retryable}` for the caller to record (the
 * dead-letter list keeps the occurrence either way). A `deadLetterArn` that is not a standard SQS
 * queue ARN is `{ok: false, error: "InvalidParameterValue"}`; what the org's credentials refuse is
 * `access_denied` or `assume_role_failed` (SPEC §13.5), as for an attempt.
 */
export async function sendDeadLetter(req: DeadLetterRequest): Promise<DeadLetterOutcome> {
  if (!SQS_DEAD_LETTER_ARN.test(req.deadLetterArn)) {
    return { ok: false, error: 'InvalidParameterValue', message: `${req.deadLetterArn.slice(0, 200)} is not a standard SQS queue ARN`, retryable: false };
  }
  const c = req.credentials;
  const plan = c ? planAwsAuth(c.org, { arn: req.deadLetterArn, roleArn: c.roleArn, scheduleId: c.scheduleId, workerOrgs: c.workerOrgs }) : null;
  if (plan && !plan.ok) return { ok: false, error: plan.result.error, message: plan.result.message, retryable: plan.retryable };
  const auth = plan?.auth;
  const message = buildDeadLetterMessage(req);
  return req.pool.run(async () => {
    if (auth?.kind === 'role') {
      const assumed = await assumeOrRefuse(auth);
      if (!assumed.ok) return { ok: false, error: assumed.result.error, message: assumed.result.message, retryable: assumed.retryable };
    }
    try {
      const sent = await sendToQueue({ arn: req.deadLetterArn, auth, body: message.body, attributes: message.attributes, params: {} });
      return { ok: true, messageId: sent.messageId, requestId: sent.requestId, truncated: message.truncated };
    } catch (thrown) {
      const f = classifyAwsError(thrown);
      return { ok: false, error: f.result.error, message: f.result.message, retryable: f.retryable };
    }
  });
}
