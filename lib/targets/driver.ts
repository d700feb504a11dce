/**
 * The driver of a target type (SPEC §13; STYLE §7): everything the fire engine (lib/engine) and the
 * save path need to know of one type, behind one interface, so that neither names a type. A type is
 * its universal contract (`TargetContract`, lib/targets/define.ts) plus this server half, named once
 * in the registry (lib/targets/index.ts).
 *
 * Two delivery modes:
 * - `in-transaction`: the attempt is made inside the claim's transaction and commits with its run
 *   record (the workflow catalog: exactly once, SPEC §8);
 * - `after-commit`: the claim's transaction stores the attempt in flight with a lease; the process
 *   delivers it after commit and records it in a second transaction (at least once, SPEC §13:
 *   receivers de-duplicate by the occurrence id).
 */
import type { Actor, OrgAws } from '../auth';
import type { HttpAllowList, Limits } from '../config';
import type { Db, Tx } from '../db';
import type { CreatorType } from '../db/contract';
import type { MissingTargetSession } from '../workflows';
import { recordedAttributes, type ContextAttributes } from './context-attributes';
import type { OccurrenceKey } from './default-event';
import type { RunStatus, TargetContract } from './define';
import type { HostResolver } from './http/destination';
import type { DeliveryPool } from './pool';

/** The schedule ARN, account and region an attempt names itself with (SPEC §13.3 default event, §13.4, §14). */
export interface ScheduleIdentity {
  /** The schedule's org's 12-digit AWS account id (SPEC §14): the default event's `account`. */
  account: string;
  /** The default event's `region`: where the schedule was saved on a facade, else the worker's AWS region. */
  region: string;
  /** `arn:aws:scheduler:<region>:<account>:schedule/<scheduler name>/<schedule name>` (`scheduleArn`). */
  scheduleArn: string;
}

/**
 * What the engine tells a driver about one attempt, the same shape in both modes (SPEC §13.3, §13.4):
 * which occurrence, which attempt, the run it will be recorded as, and how the schedule names itself.
 * SPEC §13.4's context attributes and §16.1's check-in URL are per-attempt facts of this shape.
 */
export interface AttemptContext extends OccurrenceKey {
  /** 1 for an occurrence's first attempt (and every manual fire), 2… for its retries (SPEC §12.2). */
  attempt: number;
  /** The id of the run that records this attempt (SPEC §8.1). */
  runId: string;
  /** The fire's instant (UTC): the run's and an execution's `created_at`. */
  now: Date;
  /**
   * The schedule's identity (SPEC §14): resolved once per scheduler per batch, on first ask (it may
   * read the database: in the claim's transaction for in-transaction drivers). Rejects only when the
   * database does.
   */
  identity(): Promise<ScheduleIdentity>;
  /**
   * SPEC §13.3: the API that saved the schedule asked that a target without a payload of its own
   * receive the default event (the EventBridge API, for a Target without Input). `http` and `aws`
   * targets without a payload always get it; this decides for the others.
   */
  defaultEventAsInput: boolean;
  /**
   * SPEC §13.4: the values of this attempt's context attributes, resolved once on first ask (the
   * identity may read the database). Drivers pass them to `substituteContextAttributes`.
   */
  attributes(): Promise<ContextAttributes>;
}

/**
 * Per-scheduler facts a driver may need to deliver, loaded by the engine once per scheduler per
 * batch through sources its caller passes in (lib/schedules: the domain's; a facade may override).
 * A new fact is a field here and a source there; the engine iterates the names a driver `needs`.
 */
export interface SchedulerFacts {
  /** The org's 12-digit AWS account id (SPEC §14). */
  account: string;
  /** The scheduler's name in schedule ARNs (SPEC §14): its name on a facade, else its alias or id. */
  name: string;
  /** The webhook signing secrets that sign now, the current one first (SPEC §13.1). */
  signingSecrets: string[];
  /** The org's AWS settings (SPEC §13.5): credentials mode, ExternalId, allowed accounts. */
  aws: OrgAws;
}
export type SchedulerFactName = keyof SchedulerFacts;

/** The scheduler a fact is about: its managed revision, blob, org and alias. */
export interface SchedulerRef {
  revisionId: string;
  blobId: string;
  orgId: string;
  alias: string | null;
}

/**
 * What a fact source reads with: the process's client outside any transaction (after-commit
 * delivery, dead-letter sends), or the claim's transaction (in-transaction delivery).
 */
export type FactReader = { kind: 'db'; db: Db } | { kind: 'tx'; tx: Tx };

/** Where each fact comes from (`now`: the instant secrets must still sign at, UTC). */
export type SchedulerFactSources = { [K in SchedulerFactName]: (reader: FactReader, scheduler: SchedulerRef, now: Date) => Promise<SchedulerFacts[K]> };

/** What one attempt ended with, as its run records it (SPEC §8.1, §13). */
export interface DriverOutcome {
  status: RunStatus;
  /** The run's `result`: the target type's result shape, or a refusal `{error, message?}`. */
  result: Record<string, unknown>;
  /** The execution the attempt created (in the catalog), or null. */
  executionId: string | null;
  /**
   * What the attempt sent, as sent (the dead letter's SQS body when it is the last attempt, SPEC
   * §12.3; the engine keeps it only through the driver's `redact.sent`), or null when nothing left.
   */
  request: unknown;
  /**
   * Whether the failure is transient (throttling, 5xx, 429, a timeout, a failed connection). SPEC
   * §12.2 retries every failed attempt whatever this says; logs and the dead letter's reader use it.
   */
  retryable: boolean;
  /**
   * SPEC §13.4: the target as the run records it — the stored target with its payload substituted as
   * this attempt sent it, the check-in URL masked (`recordedTarget`, decision 361) — or absent: the run
   * then copies the schedule's stored target (nothing was templated).
   */
  recordedTarget?: { type: string; target: unknown };
}

/** Process-wide delivery settings, built once by the process's edge from its configuration. */
export interface DeliveryDeps {
  /** The process's bounded pool (`createDeliveryPool(config.delivery.concurrency)`). */
  pool: DeliveryPool;
  /** `SCHEDULER_HTTP_ALLOWED_HOSTS` (SPEC §13.1). */
  allowList: HttpAllowList;
  /** `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` (SPEC §13.5): the orgs (aliases or ids, lowercased) that may deliver with the worker's own AWS credentials. */
  awsWorkerCredentialsOrgs: readonly string[];
  /** Default: the system resolver. Tests pass their own. */
  resolve?: HostResolver;
}

/** A stored target parsed for a fire, or why it cannot be delivered (recorded `unsupported_target`). */
export type ParsedTarget<T> = { ok: true; target: T } | { ok: false; message: string };

interface DriverBase<T, Sent> {
  /** Its universal contract: type name, schemas, result shapes, words. */
  contract: TargetContract<string, import('zod').ZodType, import('zod').ZodType<T>>;
  /**
   * The stored target (JSON as the row holds it) as this driver delivers it, or why it cannot be
   * (SPEC §14: the EventBridge API stores ARNs of services no driver reaches).
   */
  parse(stored: unknown): ParsedTarget<T>;
  /**
   * What is secret, REQUIRED (no default): what a dead letter keeps of a request an attempt sent
   * (`sent`), and of the stored target when nothing was sent (`target`). SPEC §12.3, §13.5: a
   * receiver's credentials never reach a dead-letter list or an SQS queue.
   */
  redact: { sent(request: Sent): Sent; target(target: T): T };
  /**
   * SPEC §13.4, optional (absent: no payload is templated): `stored` (the target as the row holds it,
   * sealed secrets and all) with its payload substituted with `attributes` — the one substitution
   * `deliver` applies to what it sends, so a run records what was sent. Pure.
   */
  templated?(stored: unknown, attributes: ContextAttributes): unknown;
  /**
   * Write-only secrets (SPEC §13.5), optional: the target as the row stores it, given the target a save
   * checked and the row's target before it (an update's of the same type, else null): e.g. secrets
   * sealed with the server key, a value sent masked kept from `before`. Every save (create, update,
   * dry run, any API) stores what this returns; `parse` opens it again for delivery, `redact.target`
   * hides it from answers. Throws a DomainError.
   */
  seal?(target: T, before: unknown): unknown;
  /**
   * SPEC §13.1-style checks a save runs BEFORE its transaction (slow I/O such as DNS must not hold the
   * database's write lock), after the saver's access was checked, on the target as sent (an object,
   * not yet parsed: the contract's schema runs in the transaction). Throws a DomainError.
   */
  checkBeforeSave?(sent: object, deps: { allowList: HttpAllowList; resolve?: HostResolver }): Promise<void>;
  /**
   * SPEC §6.3-style checks a save runs inside its transaction, with the saver's standing. Returns the
   * target to store (e.g. a pinned session's alias rewritten to its id) and, in a dry run that allows
   * it, what must be created first. Throws a DomainError.
   */
  checkAtSave?(tx: Tx, actor: Actor, target: T, opts: { allowMissingSession: boolean; /** The schedule's org (SPEC §13.5: its AWS settings). */ orgId: string }): Promise<{ target: T; missingSession?: MissingTargetSession }>;
}

/** One attempt an in-transaction driver makes. */
export interface InTransactionAttempt<T> {
  target: T;
  /** The schedule as claimed in this transaction. */
  schedule: { id: string; description: string | null; createdByType: CreatorType; createdById: string };
  ctx: AttemptContext;
}

/** A driver whose attempts are made inside the claim's transaction (exactly once with their runs). */
export interface InTransactionDriver<T = unknown, Sent = unknown> extends DriverBase<T, Sent> {
  mode: 'in-transaction';
  /**
   * Make `attempts` inside `tx` (the claim's transaction), under `limits` (SPEC §9), one outcome per
   * attempt in order. Never throws for a refused attempt; throws only when a write fails, which rolls
   * the whole batch back (nothing fired).
   */
  deliver(tx: Tx, attempts: InTransactionAttempt<T>[], env: { limits: Limits }): Promise<DriverOutcome[]>;
}

/** A driver whose attempts are delivered after the claim commits, under a lease (at least once). */
export interface AfterCommitDriver<T = unknown, Sent = unknown, Needs extends SchedulerFactName = SchedulerFactName> extends DriverBase<T, Sent> {
  mode: 'after-commit';
  /** The per-scheduler facts each attempt needs (loaded once per scheduler per batch). */
  needs: readonly Needs[];
  /** The longest one attempt of the stored target may take, in ms (its lease adds a margin). */
  attemptMs(stored: unknown): number;
  /**
   * Deliver one attempt through `env.pool` (`env.pool.run(send)`): the engine counts the send in the
   * database as its slot is taken, before the request leaves — what keeps a recovered attempt to at
   * most one repeated delivery (SPEC §13). Never throws for a failed delivery: every failure is an
   * outcome (the engine still records a throw as `internal_error`, and marks the run of an attempt
   * sent before by a process that died `repeated_delivery`).
   */
  deliver(attempt: { target: T; ctx: AttemptContext }, env: DeliveryDeps & { facts: Pick<SchedulerFacts, Needs> }): Promise<DriverOutcome>;
}

/**
 * Any driver, as the registry holds it: its target and request types opaque (the engine passes a
 * driver only what the same driver produced: `parse`'s target to `deliver`, `deliver`'s request to
 * `redact.sent`). Methods are declared as methods, so a concrete driver is assignable.
 */
export type TargetDriver = InTransactionDriver<unknown, unknown> | AfterCommitDriver<unknown, unknown, SchedulerFactName>;

/** Declare a driver (checks its shape; returns it unchanged, types kept). */
export function defineDriver<T, Sent, Needs extends SchedulerFactName>(driver: AfterCommitDriver<T, Sent, Needs>): AfterCommitDriver<T, Sent, Needs>;
export function defineDriver<T, Sent>(driver: InTransactionDriver<T, Sent>): InTransactionDriver<T, Sent>;
export function defineDriver(driver: unknown) {
  return driver;
}

/**
 * The outcome of one delivery through a pool (SPEC §13): the shape `deliverHttp` and `deliverAws`
 * answer, before the driver turns it into a `DriverOutcome`.
 */
export interface DeliveryOutcome<R, Q> {
  /** The run's `status`: `success`, or `invocation_error` for every failure (SPEC §8.1). */
  status: 'success' | 'invocation_error';
  /** The run's `result` (SPEC §13.1 / §13.2). */
  result: R;
  /** Whether the failure is transient (see `DriverOutcome.retryable`). False on success. */
  retryable: boolean;
  /** What was sent: the dead letter's message body when this is the last attempt (SPEC §12.3). */
  request: Q;
  /** The id receivers de-duplicate by: the `webhook-id` and the default event's `id` (`occurrenceId`). */
  deliveryId: string;
  /** Time spent in the attempt, in ms, from taking a pool slot to the answer (waiting for a slot excluded). */
  durationMs: number;
}

/** The fire an attempt belongs to, resolved for a delivery: its occurrence, attempt and identity (SPEC §13.3). */
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

/** An attempt's context resolved into the `FireContext` a delivery names itself with. */
export async function fireContextOf(ctx: AttemptContext): Promise<FireContext> {
  const id = await ctx.identity();
  return { scheduleId: ctx.scheduleId, scheduledFor: ctx.scheduledFor, trigger: ctx.trigger, attempt: ctx.attempt, ...id };
}

/**
 * What the run of an attempt of `driver` records as its target and type (SPEC §13.4; decision 361): `stored`
 * templated with the attributes the attempt resolved — the same values, execution id included, as it
 * sent — with the check-in URL masked (`recordedAttributes`). Undefined when the driver templates
 * nothing or the attempt never resolved its attributes (it sent no templated payload): the run then
 * copies the stored target.
 */
export async function recordedTarget(
  driver: Pick<DriverBase<unknown, unknown>, 'templated' | 'contract'>,
  stored: unknown,
  resolved: Promise<ContextAttributes> | undefined,
): Promise<{ type: string; target: unknown } | undefined> {
  if (!driver.templated || resolved === undefined) return undefined;
  return { type: driver.contract.type, target: driver.templated(stored, recordedAttributes(await resolved)) };
}

/**
 * `ctx` with a record of whether a driver asked for its attributes (`resolved()`: the promise it was
 * given, or undefined): what `recordedTarget` substitutes with.
 */
export function watchAttributes(ctx: AttemptContext): { ctx: AttemptContext; resolved(): Promise<ContextAttributes> | undefined } {
  let asked: Promise<ContextAttributes> | undefined;
  // Methods, not arrows: tsx keeps an arrow's name at ~0.8 µs per arrow made, and this runs per attempt.
  return {
    ctx: {
      ...ctx,
      attributes() {
        return (asked = ctx.attributes());
      },
    },
    resolved() {
      return asked;
    },
  };
}
