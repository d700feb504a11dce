/**
 * The default event (SPEC §13.3): what a target receives when its schedule gives no body or input.
 * A workflow target saved through the EventBridge-compatible API without `Target.Input` gets it as
 * `input_data: [{"alias": "event", "value": <event>}]` (SPEC §13.3, §14). Pure.
 */
import { createHash } from 'node:crypto';

/** Where an EventBridge-made schedule lives on that API: its ARN, the region it was saved in, its account. */
export interface EventBridgeOrigin {
  arn: string;
  region: string;
  account: string;
}

/**
 * The origin the EventBridge API stored under `defaultEvent` in a schedule's `eventbridge` column
 * (only when its Target had no Input), or null.
 */
export function eventBridgeOrigin(stored: unknown): EventBridgeOrigin | null {
  const origin = typeof stored === 'object' && stored !== null ? (stored as { defaultEvent?: unknown }).defaultEvent : null;
  if (typeof origin !== 'object' || origin === null) return null;
  const { arn, region, account } = origin as Record<string, unknown>;
  return typeof arn === 'string' && typeof region === 'string' && typeof account === 'string' ? { arn, region, account } : null;
}

/**
 * The event id of one occurrence: a UUID derived from the schedule id and the occurrence instant, so
 * every attempt of an occurrence (and its dead letter) carries the same event (SPEC §13.3).
 */
export function occurrenceEventId(scheduleId: string, scheduledFor: Date): string {
  const h = createHash('sha256').update(`${scheduleId}\n${scheduledFor.toISOString()}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50; // name-based layout (version 5 bits), lowercase hex like every id (SPEC §1)
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/**
 * The EventBridge Scheduler event for the occurrence `scheduledFor` (UTC) of schedule `scheduleId`:
 * `{"version": "0", "id", "detail-type": "Scheduled Event", "source": "aws.scheduler", "account",
 * "time": <scheduledFor, seconds, Z>, "region", "resources": [<schedule ARN>], "detail": "{}"}`.
 */
export function defaultEvent(origin: EventBridgeOrigin, scheduleId: string, scheduledFor: Date): Record<string, unknown> {
  return {
    version: '0',
    id: occurrenceEventId(scheduleId, scheduledFor),
    'detail-type': 'Scheduled Event',
    source: 'aws.scheduler',
    account: origin.account,
    time: scheduledFor.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: origin.region,
    resources: [origin.arn],
    detail: '{}',
  };
}
