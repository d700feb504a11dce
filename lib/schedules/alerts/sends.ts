/**
 * The worker's side of alerts (SPEC §17): send the due alerts, each under a lease, and record what its
 * channel answered; a failed send is tried again with back-off (60 s × 2^(n−1), at most an hour apart)
 * until 24 h after the alert was raised, then the alert is `failed`. Every send's verdict is also its
 * channel's last send (`ok` or `failing`: the flag of the scheduler page and /api/health).
 */
import { claimAlertSends, inTransaction, type AlertSend, type Db } from '../../db';
import { toError } from '../../errors';
import { recordChannelAnswer } from './channels';
import type { AlertEvent } from './contract';
import { deliverToChannel, type AlertDeliveryDeps, type ChannelAnswer, type StoredChannel } from './deliver';
import { renderAlert, type AlertFacts } from './message';

/** Alerts claimed per call. */
const SEND_BATCH = 100;
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
 * Send up to 100 alerts due at `now` and record each answer. Never throws for a failed send; throws
 * only when the database does.
 */
export async function sendDueAlerts(db: Db, deps: AlertDeliveryDeps, now: Date): Promise<AlertSendReport> {
  const report: AlertSendReport = { sent: 0, failed: 0, failures: [] };
  // A plain index probe first: the claim's write transaction only when a send is due.
  const any = await db.alert.findFirst({ where: { status: 'pending', dueAt: { lte: now } }, select: { id: true } });
  if (!any) return report;
  const due = await inTransaction(db, (tx) => claimAlertSends(tx, now, SEND_BATCH, new Date(now.getTime() + ALERT_SEND_LEASE_MS)));
  if (due.length === 0) return report;
  const channels = new Map((await db.alertChannel.findMany({ where: { id: { in: [...new Set(due.map((d) => d.channelId))] } } })).map((c) => [c.id, c]));
  // Each answer is recorded as soon as it comes (not after the whole batch): a worker killed
  // mid-batch repeats only the sends still unanswered, each under the same id.
  await Promise.all(
    due.map(async (a) => {
      const answer = await sendOne(a, channels.get(a.channelId), deps, now);
      await recordSend(db, a, answer, now, report);
      if (channels.has(a.channelId)) await recordChannelAnswer(db, a.channelId, answer, now);
    }),
  );
  return report;
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
