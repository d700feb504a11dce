/**
 * The default event (SPEC §13.3): what a target receives when it has no `body` (http) or `input`
 * (aws), and the ids that stay the same across an occurrence's attempts so receivers can de-duplicate.
 */
import { createHash } from 'node:crypto';
import type { FireTrigger } from './define';
import { arnPartition } from '../config';

/** Namespace of the occurrence ids (a fixed random UUID; changing it changes every id). */
const OCCURRENCE_NAMESPACE = '6f0c7a52-4c1e-4a8e-9d8b-3e5f2b7c1a90';

/** Which fire of a schedule an id belongs to. */
export interface OccurrenceKey {
  scheduleId: string;
  /** The occurrence instant (UTC); for a manual fire, the instant it was asked for. */
  scheduledFor: Date;
  /** `schedule` or `manual`: a manual fire (a replay, a run now) is a new delivery with its own id. */
  trigger: FireTrigger;
}

/**
 * The id of one fire, the same for every attempt of it (SPEC §13.1 `webhook-id`, §13.3 event `id`):
 * an RFC 4122 version-5 UUID (SHA-1, lowercase 8-4-4-4-12) of `<scheduleId>/<trigger>/<ISO instant>`.
 * Deterministic: no state, so a worker that crashed and re-attempts computes the same id.
 */
export function occurrenceId(key: OccurrenceKey): string {
  const name = `${key.scheduleId}/${key.trigger}/${key.scheduledFor.toISOString()}`;
  const ns = Buffer.from(OCCURRENCE_NAMESPACE.replaceAll('-', ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The EventBridge Scheduler event of SPEC §13.3, field for field. */
export interface DefaultEvent {
  version: '0';
  /** `occurrenceId` of the fire. */
  id: string;
  'detail-type': 'Scheduled Event';
  source: 'aws.scheduler';
  /** The org's 12-digit account id. */
  account: string;
  /** `scheduled_for`, ISO 8601 UTC to the second (`2026-03-01T09:00:00Z`), as AWS writes it. */
  time: string;
  region: string;
  /** `[<schedule ARN>]`. */
  resources: [string];
  /** Always the string `"{}"` (a string, not an object, as AWS sends it). */
  detail: '{}';
}

export interface DefaultEventOptions extends OccurrenceKey {
  /** The schedule's org's 12-digit AWS account id (SPEC §14). */
  account: string;
  /** The region of the worker's AWS SDK configuration (`sdkRegion()`), or the schedule ARN's. */
  region: string;
  /** `arn:<partition>:scheduler:<region>:<account>:schedule/<group>/<name>` (see `scheduleArn`). */
  scheduleArn: string;
}

/** The default event of one fire (SPEC §13.3). Same input, same event: no clock, no randomness. */
export function defaultEvent(opts: DefaultEventOptions): DefaultEvent {
  return {
    version: '0',
    id: occurrenceId(opts),
    'detail-type': 'Scheduled Event',
    source: 'aws.scheduler',
    account: opts.account,
    time: opts.scheduledFor.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: opts.region,
    resources: [opts.scheduleArn],
    detail: '{}',
  };
}

/**
 * A schedule's ARN (SPEC §14, EVENTBRIDGE.md §3.1): `arn:<partition>:scheduler:<region>:<account>:schedule/<group>/<name>`,
 * where the partition is the region's (`aws`, `aws-us-gov`, `aws-cn`), the group is the scheduler's
 * group name and the name the schedule's (its alias, or its id).
 */
export function scheduleArn(opts: { region: string; account: string; group: string; name: string }): string {
  return `arn:${arnPartition(opts.region)}:scheduler:${opts.region}:${opts.account}:schedule/${opts.group}/${opts.name}`;
}
