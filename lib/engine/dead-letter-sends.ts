/**
 * The SQS side of dead letters (SPEC §12.3): an exhausted occurrence with a `dead_letter.arn` is stored
 * with its send `pending` in the transaction that exhausts it; after commit the worker sends the due
 * ones (`sendDueDeadLetters`) through the delivery pool with every attribute of §12.3, and records the
 * answer on the dead letter. At least once: a worker that dies mid-send leaves the send due again once
 * its lease ends. A failed send is tried again after 60 s, 5 sends in all; the dead-letter list keeps
 * the occurrence whatever the send's fate.
 */
import { claimDeadLetterSends, deadLetterSendDue, inTransaction, type Db, type DeadLetterSend } from '../db';
import { toError } from '../errors';
import { deadLetterError, deadLetterRole, EXHAUSTED_RETRY_CONDITIONS, redactForDeadLetter, sendDeadLetter, targetAddress, type DeliveryDeps } from '../targets';
import { SchedulerFactCache } from './context';
import type { EngineDeps } from './deps';

/** Sends claimed per call. */
const SEND_BATCH = 100;
/** A send in hand holds its dead letter this long, in ms (SQS's SDK timeouts are far shorter). */
const SEND_LEASE_MS = 120_000;
/** Pause before trying a failed send again, in ms, and most sends per dead letter. */
const SEND_RETRY_MS = 60_000;
const SEND_ATTEMPTS = 5;

/** What one call did: dead letters sent, and sends that failed (to be tried again, or given up). */
export interface DeadLetterSendReport {
  sent: number;
  failed: number;
  /** Each failed send: the dead letter, its queue, AWS's error, and whether it will be tried again. */
  failures: { deadLetterId: string; queue: string; error: string; message: string; final: boolean }[];
}

/**
 * Send up to 100 dead letters whose SQS send is due at `now` (UTC) and record each answer
 * (`sqs_status` `sent` with `{message_id}`, or `failed` with `{error, message}` after the last try).
 * Never throws for a failed send; throws only when the database does.
 */
export async function sendDueDeadLetters(db: Db, engine: EngineDeps, deps: DeliveryDeps, now: Date): Promise<DeadLetterSendReport> {
  // A plain index probe first: the claim's write transaction only when a send is due.
  if (!(await deadLetterSendDue(db, now))) return { sent: 0, failed: 0, failures: [] };
  const due = await inTransaction(db, (tx) => claimDeadLetterSends(tx, now, SEND_BATCH, new Date(now.getTime() + SEND_LEASE_MS)));
  if (due.length === 0) return { sent: 0, failed: 0, failures: [] };
  // Each scheduler's account and name are read once per call, however many of its dead letters are due.
  const facts = new SchedulerFactCache({ kind: 'db', db }, engine, now);
  const results = await Promise.all(due.map((d) => sendOne(db, d, deps, facts)));
  let sent = 0;
  let failed = 0;
  const failures: DeadLetterSendReport['failures'] = [];
  // Serialization is desired: one small update per dead letter, SQLite's single writer uncontended.
  for (const [i, r] of results.entries()) {
    const d = due[i];
    if (r.ok) {
      sent++;
      await db.deadLetter.update({ where: { id: d.id }, data: { sqsStatus: 'sent', sqsDueAt: null, sqsResult: { message_id: r.messageId ?? null, truncated: r.truncated } } });
    } else {
      failed++;
      const last = !r.retryable || d.sqsAttempts >= SEND_ATTEMPTS;
      failures.push({ deadLetterId: d.id, queue: d.deadLetterArn, error: r.error, message: r.message, final: last });
      await db.deadLetter.update({
        where: { id: d.id },
        data: { sqsStatus: last ? 'failed' : 'pending', sqsDueAt: last ? null : new Date(now.getTime() + SEND_RETRY_MS), sqsResult: { error: r.error, message: r.message } },
      });
    }
  }
  return { sent, failed, failures };
}

/** True when a dead letter's body is a request an attempt sent (it names its type), not the call it made. */
const sentRequest = (body: unknown): body is { type: string } => typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string';

type SendResult = { ok: true; messageId?: string; truncated: boolean } | { ok: false; error: string; message: string; retryable: boolean };

async function sendOne(db: Db, d: DeadLetterSend, deps: DeliveryDeps, facts: SchedulerFactCache): Promise<SendResult> {
  try {
    const scheduler = await facts.scheduler(d.revisionId);
    const schedule = await db.schedule.findUnique({ where: { id: d.scheduleId }, select: { name: true, facadeData: true, deadLetterRoleArn: true } });
    const scheduleArn = scheduler
      ? (await facts.identity({ scheduleId: d.scheduleId, revisionId: d.revisionId, name: schedule?.name ?? d.scheduleId, facadeData: schedule?.facadeData ?? null })).scheduleArn
      : d.scheduleId;
    const { errorCode, errorMessage } = deadLetterError(d.lastResult);
    // SPEC §12.3 TARGET_ARN: the target's address as its contract names it (URL, ARN, workflow:<schedule id>).
    const targetArn = targetAddress(d.invocationTargetType, d.invocationTarget ?? {}, d.scheduleId);
    // SPEC §13.5: sent with the org's credentials (its assumed role, or the worker's own when granted).
    const org = scheduler ? await facts.fact(scheduler, 'aws') : null;
    if (!org) return { ok: false, error: 'access_denied', message: 'the schedule\'s scheduler no longer exists', retryable: false };
    const credentials = { org, roleArn: deadLetterRole(schedule?.deadLetterRoleArn, d.invocationTarget), scheduleId: d.scheduleId, workerOrgs: deps.awsWorkerCredentialsOrgs };
    return await sendDeadLetter({
      deadLetterArn: d.deadLetterArn,
      // Redacted again as it leaves (idempotent): a dead letter stored before SPEC §13.5's masking goes out masked too.
      request: sentRequest(d.lastRequest) ? redactForDeadLetter(d.lastRequest) : ((d.lastRequest ?? {}) as object),
      errorCode,
      errorMessage,
      executionId: d.lastRunId,
      exhausted: (d.exhausted in EXHAUSTED_RETRY_CONDITIONS ? d.exhausted : 'maximum_retry_attempts') as keyof typeof EXHAUSTED_RETRY_CONDITIONS,
      retryAttempts: Math.max(0, d.attempts - 1),
      scheduledFor: d.scheduledFor,
      scheduleArn,
      targetArn,
      pool: deps.pool,
      credentials,
    });
  } catch (thrown) {
    return { ok: false, error: 'internal_error', message: toError(thrown).message.slice(0, 1000), retryable: true };
  }
}
