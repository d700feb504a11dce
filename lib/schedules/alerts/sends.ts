/**
 * The worker's side of alerts (SPEC §17): send the due alerts, each under a lease, and record what its
 * channel answered; a failed send is tried again with back-off (60 s × 2^(n−1), at most an hour apart)
 * until 24 h after the alert was raised, then the alert is `failed`. Every send's verdict is also its
 * channel's last send (`ok` or `failing`: the flag of the scheduler page and /api/health).
 */
import { alertSendDue, claimAlertSends, inTransaction, type AlertSend, type Db } from '../../db';
import { toError } from '../../errors';
import { recordChannelAnswer } from './channels';
import type { AlertEvent } from './contract';
import { deliverToChannel, type AlertDeliveryDeps, type ChannelAnswer, type StoredChannel } from './deliver';
import { renderAlert, type AlertFacts } from './message';

/** Alerts claimed per call. */
const SEND_BATCH = 100;
/**
 * Sends of one channel in flight at once in a worker (decision 341): a batch claims at most this many
 * alerts of each channel, and a worker sends one batch at a time. A worker killed mid-batch leaves at
 * most this many requests per channel unanswered, to be sent again under the same id.
 */
export const ALERT_SENDS_PER_CHANNEL = 4;
/** Batches one `sendDueAlerts` call sends at most (a guard: the loop ends by itself). */
const MAX_BATCHES_PER_CALL = 50;
/** A send in hand holds its alert this long, in ms (every send times out well before). */
export const ALERT_SEND_LEASE_MS = 120_000;
/** How long a failing alert is tried (SPEC §17: "retried with back-off for up to 24 h"). */
export const ALERT_RETRY_WINDOW_MS = 86_400_000;

/** The pause after the n-th failed send, in ms: 60 s × 2^(n−1), at most an hour. */
export function alertRetryDelayMs(sends: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, sends - 1), 3_600_000);
}

export interface AlertSendReport {
  sent: number;
  failed: number;
  /** Each failed send: the alert, its channel, the answer, and whether it was the last try. */
  failures: { alertId: string; channelId: string; message: string; final: boolean }[];
}

/**
 * Send the alerts due at `now` and record each answer, batch after batch until none is left to claim
 * (or `shouldStop` says so). A batch claims at most 100 alerts, at most ALERT_SENDS_PER_CHANNEL of a
 * channel and, of one incident and channel, only the earliest still pending (decision 341): so a worker
 * has at most ALERT_SENDS_PER_CHANNEL requests in flight per channel, and one incident's notifications
 * reach a channel in the order they were raised (round 1 never before round 0). `at` is the instant, or
 * a clock read again for each batch (the worker's: each batch's lease counts from its own claim).
 * Never throws for a failed send; throws only when the database does.
 */
export async function sendDueAlerts(db: Db, deps: AlertDeliveryDeps, at: Date | (() => Date), shouldStop: () => boolean = () => false): Promise<AlertSendReport> {
  const report: AlertSendReport = { sent: 0, failed: 0, failures: [] };
  // Each batch moves every alert it claimed out of reach at `now` (sent, failed, or due again after a
  // back-off or its lease), so the loop ends; the cap is a guard.
  for (let batch = 0; batch < MAX_BATCHES_PER_CALL && !shouldStop(); batch++) {
    if ((await sendBatch(db, deps, typeof at === 'function' ? at() : at, report)) === 0) break;
  }
  return report;
}

/** Claim one batch, send it, record each answer as it comes. Answers how many were claimed. */
async function sendBatch(db: Db, deps: AlertDeliveryDeps, now: Date, report: AlertSendReport): Promise<number> {
  // A plain index probe first: the claim's write transaction only when a send is due.
  if (!(await alertSendDue(db, now))) return 0;
  const due = await inTransaction(db, (tx) => claimAlertSends(tx, now, SEND_BATCH, new Date(now.getTime() + ALERT_SEND_LEASE_MS), ALERT_SENDS_PER_CHANNEL));
  if (due.length === 0) return 0;
  const channels = new Map((await db.alertChannel.findMany({ where: { id: { in: [...new Set(due.map((d) => d.channelId))] } } })).map((c) => [c.id, c]));
  // Exactly once through crashes (SPEC §17, decision 274): each answer is recorded as soon as it comes
  // (not after the whole batch), so a worker killed mid-batch repeats only the sends still unanswered —
  // at most ALERT_SENDS_PER_CHANNEL per channel — each under the same id (webhook-id, Message-ID).
  await Promise.all(
    due.map(async (a) => {
      const answer = await sendOne(a, channels.get(a.channelId), deps, now);
      await recordSend(db, a, answer, now, report);
      if (channels.has(a.channelId)) await recordChannelAnswer(db, a.channelId, answer, now);
    }),
  );
  return due.length;
}

async function sendOne(a: AlertSend, channel: StoredChannel | undefined, deps: AlertDeliveryDeps, now: Date): Promise<ChannelAnswer> {
  if (!channel) return { ok: false, message: 'the channel was deleted', retryable: false };
  try {
    const message = renderAlert({ id: a.id, incidentId: a.incidentId, event: a.event as AlertEvent, round: a.round, facts: a.facts as AlertFacts, publicUrl: deps.publicUrl, at: now });
    return await deliverToChannel(channel, a.id, message, deps, now);
  } catch (e) {
    return { ok: false, message: toError(e).message.slice(0, 1000), retryable: true };
  }
}

async function recordSend(db: Db, a: AlertSend, answer: ChannelAnswer, now: Date, report: AlertSendReport): Promise<void> {
  const stored = { ...(answer.status !== undefined ? { status: answer.status } : {}), message: answer.message };
  if (answer.ok) {
    report.sent++;
    await db.alert.updateMany({ where: { id: a.id, status: 'pending' }, data: { status: 'sent', sentAt: now, dueAt: null, answer: stored } });
    return;
  }
  report.failed++;
  const next = new Date(now.getTime() + alertRetryDelayMs(a.sends));
  const last = !answer.retryable || next.getTime() > a.createdAt.getTime() + ALERT_RETRY_WINDOW_MS;
  report.failures.push({ alertId: a.id, channelId: a.channelId, message: answer.message, final: last });
  await db.alert.updateMany({ where: { id: a.id, status: 'pending' }, data: { status: last ? 'failed' : 'pending', dueAt: last ? null : next, answer: stored } });
}
