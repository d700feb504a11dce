/**
 * Per-attempt context (SPEC §13.3, §13.4, §14): the `AttemptContext` every driver gets, and the
 * per-scheduler facts behind it, read once per scheduler per batch through the sources the engine
 * was given (`EngineDeps.facts`), only when a driver or an identity asks.
 */
import { randomInt } from 'node:crypto';
import { occurrenceId, scheduleArn, sdkRegion, type AttemptContext, type ContextAttributes, type FactReader, type FireTrigger, type ScheduleIdentity, type SchedulerFactName, type SchedulerFacts, type SchedulerRef } from '../targets';
import type { EngineDeps } from './deps';

/** What an attempt's context is built from: its occurrence, attempt and run, and its schedule's naming. */
export interface ContextInput {
  scheduleId: string;
  revisionId: string;
  /**
   * The schedule's name in its group (SPEC §14: the EventBridge `Name`, else the alias, else the id):
   * the last part of its schedule ARN, as GetSchedule answers it.
   */
  name: string;
  /** What a facade stored beside the schedule (opaque; read by `EngineDeps.facade`). */
  facadeData: unknown;
  scheduledFor: Date;
  trigger: FireTrigger;
  attempt: number;
  runId: string;
  now: Date;
}

/**
 * The schedulers of one batch and their facts, each read at most once, on first ask, with `reader`
 * (the claim's transaction for in-transaction attempts, the client outside it otherwise).
 */
export class SchedulerFactCache {
  private readonly refs = new Map<string, Promise<SchedulerRef | null>>();
  private readonly facts = new Map<string, Promise<unknown>>();

  constructor(
    private readonly reader: FactReader,
    private readonly deps: EngineDeps,
    private readonly now: Date,
  ) {}

  /** The scheduler of managed revision `revisionId`, or null when it is gone. */
  scheduler(revisionId: string): Promise<SchedulerRef | null> {
    let ref = this.refs.get(revisionId);
    if (!ref) {
      const client = this.reader.kind === 'db' ? this.reader.db : this.reader.tx;
      ref = client.revision
        .findUnique({ where: { id: revisionId }, select: { blob: { select: { id: true, alias: true, orgId: true } } } })
        .then((r) => (r ? { revisionId, blobId: r.blob.id, orgId: r.blob.orgId, alias: r.blob.alias } : null));
      this.refs.set(revisionId, ref);
    }
    return ref;
  }

  /** Fact `name` of scheduler `ref` (from `EngineDeps.facts`). */
  fact<K extends SchedulerFactName>(ref: SchedulerRef, name: K): Promise<SchedulerFacts[K]> {
    const key = `${ref.revisionId}\u0000${name}`;
    let fact = this.facts.get(key);
    if (!fact) {
      fact = this.deps.facts[name](this.reader, ref, this.now);
      this.facts.set(key, fact);
    }
    return fact as Promise<SchedulerFacts[K]>;
  }

  /** Facts `names` of scheduler `ref`, together. */
  async factsOf<K extends SchedulerFactName>(ref: SchedulerRef, names: readonly K[]): Promise<Pick<SchedulerFacts, K>> {
    const values = await Promise.all(names.map((n) => this.fact(ref, n)));
    const facts: Partial<SchedulerFacts> = {};
    names.forEach((n, i) => Object.assign(facts, { [n]: values[i] }));
    return facts as Pick<SchedulerFacts, K>;
  }

  /**
   * How schedule `s` names itself (SPEC §13.3, §14): the identity a facade stored with it, else its
   * org's account, the region a facade saved it in (else the worker's AWS region) and
   * `arn:aws:scheduler:<region>:<account>:schedule/<scheduler name>/<schedule name>`.
   * Throws when its scheduler is gone (a deleted blob takes its schedules with it: not expected).
   * `stored`: the facade's stored identity when the caller has already read it.
   */
  async identity(
    s: Pick<ContextInput, 'scheduleId' | 'revisionId' | 'name' | 'facadeData'>,
    stored: ScheduleIdentity | null = this.deps.facade.storedIdentity(s.facadeData),
  ): Promise<ScheduleIdentity> {
    if (stored) return stored;
    const ref = await this.scheduler(s.revisionId);
    if (!ref) throw new Error(`the scheduler of schedule ${s.scheduleId} no longer exists`);
    const [account, name, region] = await Promise.all([this.fact(ref, 'account'), this.fact(ref, 'name'), this.deps.facade.storedRegion(s.facadeData) ?? sdkRegion()]);
    return { account, region, scheduleArn: scheduleArn({ region, account, group: name, name: s.name || s.scheduleId }) };
  }

  /** The context of one attempt (SPEC §13.3, §13.4, §16.1): its identity resolved on first ask. */
  context(input: ContextInput): AttemptContext {
    return attemptContext(this, this.deps, input);
  }
}

/**
 * `SchedulerFactCache.context`. Its functions are object methods, not arrow functions: the worker
 * runs through tsx, which keeps every named arrow's name at ~0.8 µs per arrow made, and this runs
 * once per attempt (docs/performance.md).
 */
function attemptContext(cache: SchedulerFactCache, deps: EngineDeps, input: ContextInput): AttemptContext {
  let identity: Promise<ScheduleIdentity> | undefined;
  let attributes: Promise<ContextAttributes> | undefined;
  const stored = deps.facade.storedIdentity(input.facadeData);
  return {
    scheduleId: input.scheduleId,
    scheduledFor: input.scheduledFor,
    trigger: input.trigger,
    attempt: input.attempt,
    runId: input.runId,
    now: input.now,
    identity() {
      return (identity ??= cache.identity(input, stored));
    },
    defaultEventAsInput: stored !== null,
    // The check-in URL (an HMAC of the run id) is minted only when a driver asks for the attributes.
    attributes() {
      return (attributes ??= (identity ??= cache.identity(input, stored)).then((id) => ({
        scheduleArn: id.scheduleArn,
        scheduledFor: input.scheduledFor,
        executionId: newExecutionId(),
        attempt: input.attempt,
        scheduleId: input.scheduleId,
        occurrenceId: occurrenceId(input),
        checkinUrl: deps.checkins?.url(input.runId) ?? null,
      })));
    },
  };
}

const EXECUTION_ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** SPEC §13.4 `<aws.scheduler.execution-id>`: a fresh id per attempt, 16 lowercase letters and digits. */
export function newExecutionId(): string {
  let id = '';
  for (let i = 0; i < 16; i++) id += EXECUTION_ID_CHARS[randomInt(EXECUTION_ID_CHARS.length)];
  return id;
}
