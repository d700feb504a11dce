/**
 * Attempts to `http` and `aws` targets (SPEC §13), delivered outside the database transaction:
 *
 * 1. the fire transaction (fire-occurrence.ts, or run-schedule.ts / dead-letters.ts for a manual fire)
 *    stores the attempt IN FLIGHT (a `pending_attempts` row with `deliveries` ≥ 1 whose `due_at` is
 *    the end of its lease) and commits;
 * 2. `deliverInFlight` sends it through the process's bounded delivery pool (lib/delivery);
 * 3. `recordDelivered` records its run and what it leads to (a retry, a dead letter, a pause, the
 *    completion) in one transaction that deletes the in-flight row.
 *
 * Guarantee (docs/architecture.md): at least once for external targets. A process that dies between
 * 2 and 3 leaves the row; once its lease ends, a worker claims it again, delivers it once more with the
 * same `webhook-id` / event `id` (receivers de-duplicate by it) and records the run with
 * `repeated_delivery: true` when it had been sent. Each send is counted in the database before its
 * request leaves (`markSendsStarted`), so an attempt already sent twice is recorded
 * `delivery_interrupted` without a third send, and one that never left is delivered normally. Each attempt's run is recorded exactly once (the DELETE of its row decides).
 */
import type { HttpAllowList } from '../config';
import { inTransaction, markSendsStarted, renewInFlight, type Db, type FiringSchedule } from '../db';
import {
  AwsInvocationTargetSchema,
  createDeliveryPool,
  deliver,
  HTTP_TIMEOUT_SECONDS,
  HttpInvocationTargetSchema,
  scheduleArn,
  sdkRegion,
  type AwsInvocationTarget,
  type DeliveryPool,
  type HttpInvocationTarget,
  type FireContext,
  type HostResolver,
  type SentRequest,
} from '../delivery';
import { orgAccountId } from '../auth';
import { toError } from '../errors';
import type { RunResult, RunTrigger } from './contract';
import { eventBridgeOrigin } from './default-event';
import type { InvokeOutcome } from './invoke-target';
import { signingSecretsForDelivery } from './signing-secrets';
import { GROUP_SELECT, toGroupInfo } from './groups/group-info';

/** What a process needs to deliver (built once by its edge from lib/config). */
export interface DeliveryDeps {
  /** The process's bounded pool (`createDeliveryPool(config.delivery.concurrency)`). */
  pool: DeliveryPool;
  /** `SCHEDULER_HTTP_ALLOWED_HOSTS` (SPEC §13.1). */
  allowList: HttpAllowList;
  /** Default: the system resolver. Tests pass their own. */
  resolve?: HostResolver;
}

/** `DeliveryDeps` from the process's configuration (its edge calls this once): one pool per process. */
export function createDeliveryDeps(config: { delivery: { httpAllowList: HttpAllowList; concurrency: number } }): DeliveryDeps {
  return { pool: createDeliveryPool(config.delivery.concurrency), allowList: config.delivery.httpAllowList };
}

/** A renewed lease lasts this long, in ms: longer than any attempt (30 s webhook timeout) plus a margin. */
const RENEWED_LEASE_MS = 90_000;

/**
 * Renew the leases of in-flight attempts `pendingIds` this process is delivering (SPEC §13), to
 * `now` + 90 s, in one statement. Call at least every `LEASE_RENEW_MS` of the same clock.
 */
export async function renewInFlightLeases(db: Db, pendingIds: string[], now: Date): Promise<void> {
  await inTransaction(db, (tx) => renewInFlight(tx, pendingIds, new Date(now.getTime() + RENEWED_LEASE_MS)));
}

/** How long an in-flight attempt's lease lasts past its delivery's own timeout, in ms. */
const LEASE_MARGIN_MS = 60_000;
/** The AWS SDK's own timeouts and retries bound an aws attempt; its lease assumes this much, in ms. */
const AWS_ATTEMPT_MS = 60_000;

/** Whether a schedule's target is delivered outside the catalog (SPEC §13). */
export function isExternalTarget(type: string | null | undefined): type is 'http' | 'aws' {
  return type === 'http' || type === 'aws';
}

/**
 * When an in-flight attempt's lease ends (UTC): `now` + the target's longest attempt + a margin. The
 * delivering process renews it while the attempt waits for a pool slot or runs (`LEASE_RENEW_MS`).
 */
export function inFlightLeaseEnd(schedule: Pick<FiringSchedule, 'invocationTargetType' | 'invocationTarget'>, now: Date): Date {
  const timeout = schedule.invocationTargetType === 'http' ? ((schedule.invocationTarget as { timeout_seconds?: number }).timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default) * 1000 : AWS_ATTEMPT_MS;
  return new Date(now.getTime() + timeout + LEASE_MARGIN_MS);
}

/** How often a delivering process renews the leases of its in-flight attempts, in ms (a third of the shortest lease). */
export const LEASE_RENEW_MS = 20_000;

/** One attempt stored in flight, to deliver and then record. */
export interface InFlightAttempt {
  /** Its `pending_attempts` row. */
  pendingId: string;
  /** The run id its record will have. */
  runId: string;
  scheduleId: string;
  revisionId: string;
  alias: string | null;
  scheduledFor: Date;
  trigger: RunTrigger;
  attempt: number;
  /** Sends of this attempt already started before this delivery: 0, or 1 for a repeat after an interrupted one. */
  deliveries: number;
  /** A manual replay: the dead letter it replays. */
  deadLetterId: string | null;
  targetType: 'http' | 'aws';
  /** The stored target at the claim: what is delivered. */
  target: unknown;
  eventbridge: unknown;
  /** When the attempt was due (lateness counts from it), and when it was claimed. */
  dueAt: Date;
  claimedAt: Date;
}

/** An attempt delivered: its outcome as a run records it, and what it sent (the dead letter's body). */
export interface DeliveredAttempt {
  attempt: InFlightAttempt;
  outcome: InvokeOutcome;
  request: SentRequest | null;
  retryable: boolean;
}

/** The in-flight attempt of `schedule`'s fire (`deliveries` 1), claimed at `now`. */
export function inFlightAttemptOf(
  schedule: FiringSchedule,
  fire: { pendingId: string; runId: string; scheduledFor: Date; trigger: RunTrigger; attempt: number; deliveries: number; deadLetterId: string | null; dueAt: Date; now: Date },
): InFlightAttempt {
  return {
    pendingId: fire.pendingId,
    runId: fire.runId,
    scheduleId: schedule.id,
    revisionId: schedule.revisionId,
    alias: schedule.alias,
    scheduledFor: fire.scheduledFor,
    trigger: fire.trigger,
    attempt: fire.attempt,
    deliveries: fire.deliveries,
    deadLetterId: fire.deadLetterId,
    targetType: schedule.invocationTargetType as 'http' | 'aws',
    target: schedule.invocationTarget,
    eventbridge: schedule.eventbridge,
    dueAt: fire.dueAt,
    claimedAt: fire.now,
  };
}

/** Per-scheduler facts a delivery needs, read once per batch: signing secrets, account, group name. */
export interface SchedulerFacts {
  blobId: string;
  secrets: string[] | null;
  account: string;
  groupName: string;
}

/**
 * Deliver in-flight attempts (SPEC §13.1, §13.2): each through `deps.pool`, never rejecting — a
 * failure is the attempt's outcome. Reads each scheduler's signing secrets, account id and group name
 * once. Resolves in the order of `attempts`; the caller may also take each promise as it settles
 * (`deliverEach`).
 */
export function deliverEach(db: Db, attempts: InFlightAttempt[], deps: DeliveryDeps, now: Date): Promise<DeliveredAttempt>[] {
  const facts = new Map<string, Promise<SchedulerFacts | null>>();
  const factsOf = (a: InFlightAttempt) => {
    let f = facts.get(a.revisionId);
    if (!f) {
      f = schedulerFacts(db, a.revisionId, now, attempts.some((x) => x.revisionId === a.revisionId && x.targetType === 'http'));
      facts.set(a.revisionId, f);
    }
    return f;
  };
  const mark = sendMarker(db);
  return attempts.map((a) => {
    // Each send is counted durably just before its request leaves (taking its pool slot first).
    const pool: DeliveryPool = { run: (send) => deps.pool.run(async () => (await mark(a.pendingId), send())), load: deps.pool.load };
    return deliverOne(a, factsOf(a), { ...deps, pool });
  });
}

/**
 * Count sends before they leave (SPEC §13, at most one repeated delivery): ids asked for within 2 ms
 * share one UPDATE; each caller waits for its batch to commit. A failed mark fails its deliveries
 * (nothing is sent without its count).
 */
function sendMarker(db: Db): (pendingId: string) => Promise<void> {
  let batch: { ids: string[]; done: Promise<void> } | null = null;
  return (pendingId) => {
    if (!batch) {
      const b: { ids: string[]; done: Promise<void> } = { ids: [], done: Promise.resolve() };
      b.done = new Promise((resolve) => setTimeout(resolve, 2)).then(async () => {
        batch = null;
        await inTransaction(db, (tx) => markSendsStarted(tx, b.ids));
      });
      batch = b;
    }
    batch.ids.push(pendingId);
    return batch.done;
  };
}

/** The facts of the scheduler of revision `revisionId` (null when it is gone); secrets only when `needsSecrets`. */
export async function schedulerFacts(db: Db, revisionId: string, now: Date, needsSecrets: boolean): Promise<SchedulerFacts | null> {
  const revision = await db.revision.findUnique({ where: { id: revisionId }, select: { blob: { select: { id: true, alias: true, orgId: true } } } });
  if (!revision) return null;
  const { blob } = revision;
  const [group, account, secrets] = await Promise.all([
    db.scheduleGroup.findUnique({ where: { blobId: blob.id }, select: GROUP_SELECT }),
    orgAccountId(db, blob.orgId),
    needsSecrets ? signingSecretsForDelivery(db, blob.id, now) : Promise.resolve(null),
  ]);
  return { blobId: blob.id, secrets, account, groupName: group ? toGroupInfo(group).name : (blob.alias ?? blob.id) };
}

/** The fire an attempt belongs to, as the default event and the dead letter name it (SPEC §13.3, §14). */
export async function fireContextOf(
  a: Pick<InFlightAttempt, 'scheduleId' | 'scheduledFor' | 'trigger' | 'attempt' | 'alias' | 'eventbridge'>,
  facts: SchedulerFacts,
): Promise<FireContext> {
  const key = { scheduleId: a.scheduleId, scheduledFor: a.scheduledFor, trigger: a.trigger, attempt: a.attempt };
  const origin = eventBridgeOrigin(a.eventbridge);
  if (origin) return { ...key, account: origin.account, region: origin.region, scheduleArn: origin.arn };
  const stored = (a.eventbridge as { region?: unknown } | null)?.region;
  const region = typeof stored === 'string' ? stored : await sdkRegion();
  return { ...key, account: facts.account, region, scheduleArn: scheduleArn({ region, account: facts.account, group: facts.groupName, name: a.alias ?? a.scheduleId }) };
}

async function deliverOne(a: InFlightAttempt, factsP: Promise<SchedulerFacts | null>, deps: DeliveryDeps): Promise<DeliveredAttempt> {
  const failed = (result: RunResult): DeliveredAttempt => ({ attempt: a, outcome: { runId: a.runId, status: 'invocation_error', result, executionId: null }, request: null, retryable: false });
  try {
    const facts = await factsP;
    if (!facts) return failed({ error: 'target_not_found', message: 'the scheduler of this schedule no longer exists' });
    const fire = await fireContextOf(a, facts);
    // The stored target is parsed again: the EventBridge API stores ARNs of services SPEC §13.2 does
    // not deliver to (kinesis, …); each of their attempts fails `unsupported_target`.
    const parsed = a.targetType === 'http' ? HttpInvocationTargetSchema.safeParse(a.target) : AwsInvocationTargetSchema.safeParse(a.target);
    if (!parsed.success) return failed({ error: 'unsupported_target', message: `this ${a.targetType} target cannot be delivered: ${parsed.error.issues[0]?.message ?? 'it is not valid'}` });
    const out =
      a.targetType === 'http'
        ? await deliver({ type: 'http', target: parsed.data as HttpInvocationTarget, fire, signingSecrets: facts.secrets ?? [], allowList: deps.allowList, pool: deps.pool, resolve: deps.resolve })
        : await deliver({ type: 'aws', target: parsed.data as AwsInvocationTarget, fire, pool: deps.pool });
    // SPEC §13 at-least-once: the second send of an interrupted attempt says so on its run.
    const result = (a.deliveries >= 1 ? { ...out.result, repeated_delivery: true } : out.result) as RunResult;
    return { attempt: a, outcome: { runId: a.runId, status: out.status, result, executionId: null }, request: out.request, retryable: out.retryable };
  } catch (thrown) {
    return failed({ error: 'internal_error', message: toError(thrown).message.slice(0, 1000) });
  }
}

/** The outcome of an attempt interrupted twice (SPEC §13): recorded without a third delivery. */
export function interruptedOutcome(a: InFlightAttempt): DeliveredAttempt {
  return {
    attempt: a,
    outcome: {
      runId: a.runId,
      status: 'invocation_error',
      result: { error: 'delivery_interrupted', message: 'the worker delivering this attempt stopped twice before recording it; it was not sent a third time (the receiver may have it, under the same webhook-id / event id)' },
      executionId: null,
    },
    request: null,
    retryable: false,
  };
}
