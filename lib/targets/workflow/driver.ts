/**
 * The `workflow` driver (SPEC §6, §8): a fire's invocation in the embedded workflow catalog, made
 * INSIDE the claim's transaction, so the executions commit together with the claim, the advance and
 * the run records (exactly once, SPEC §8). It reaches the catalog only through its gateway
 * (lib/workflows `WorkflowGateway`), so a remote catalog can replace the embedded one.
 */
import { actorFromEntity } from '../../auth';
import type { Tx } from '../../db';
import { DomainError, toError } from '../../errors';
import {
  checkInvocationTarget,
  embeddedGateway,
  type CreateExecutionRequest,
  type CheckedExecution,
  type FireKey,
  type ResolvedTarget,
  type ResolvedWorkflow,
  type ResolveFailure,
  type WorkflowGateway,
} from '../../workflows';
import type { InvocationError } from '../../workflows/contract';
import { substituteInStrings, type ContextAttributes } from '../context-attributes';
import { defaultEvent } from '../default-event';
import type { RunStatus } from '../define';
import { defineDriver, type DriverOutcome, type InTransactionAttempt } from '../driver';
import { WORKFLOW_TARGET, type InvocationTarget } from './contract';

type Attempt = InTransactionAttempt<InvocationTarget>;
type Schedule = Attempt['schedule'];
type Failure = { status: RunStatus; result: Record<string, unknown> };

type Resolution =
  /** `checked`: what `resolveForFires` proved of `create_execution`'s checks (not read again). */
  | { ok: true; target: ResolvedTarget; workflow: ResolvedWorkflow; checked?: CheckedExecution }
  | ({ ok: false } & Failure);

/** Attempts with the same creator, target and workflow reference share one resolution. */
function resolutionKey(schedule: Schedule, it: InvocationTarget): string {
  const { target: t, workflow: w } = it;
  // Every field of the two strict references (contract.ts), by position: an array of strings
  // serializes in well under a microsecond, the nested objects took ~4 µs a fire. A stored target
  // of another shape (malformed data) is keyed whole, so it never shares another's resolution.
  if (!onlyFields(t, TARGET_FIELDS) || !onlyFields(w, WORKFLOW_FIELDS)) return JSON.stringify(['whole', schedule.createdByType, schedule.createdById, t, w]);
  return JSON.stringify([schedule.createdByType, schedule.createdById, t.org ?? null, t.blob, t.revision, t.session, w.org ?? null, w.blob ?? null, w.revision ?? null, w.definition]);
}

const TARGET_FIELDS = new Set(['org', 'blob', 'revision', 'session']);
const WORKFLOW_FIELDS = new Set(['org', 'blob', 'revision', 'definition']);
/** Whether `v` is an object whose own fields are all among `fields`. */
function onlyFields(v: unknown, fields: ReadonlySet<string>): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const k in v) if (!fields.has(k)) return false;
  return true;
}

/**
 * The batch's distinct workflow fires resolved at once (`gateway.resolveForFires`: a constant number
 * of statements however many targets). A key it does not decide is absent: the loop resolves it
 * with `resolve`, one key at a time, which names its failure.
 */
async function resolveAll(tx: Tx, gateway: WorkflowGateway, attempts: Attempt[], keys: string[]): Promise<Map<string, Resolution>> {
  const distinct = new Map<string, FireKey>();
  for (const [i, { schedule, target }] of attempts.entries()) {
    if (distinct.has(keys[i])) continue;
    distinct.set(keys[i], { actor: actorOf(schedule), target: target.target, workflow: target.workflow });
  }
  const out = new Map<string, Resolution>();
  if (distinct.size === 0) return out;
  // A failing statement fails the batch (on PostgreSQL it aborts the transaction anyway): the worker
  // then fires its occurrences one by one.
  const answers = await gateway.resolveForFires(tx, [...distinct.values()]);
  [...distinct.keys()].forEach((key, i) => {
    const v = answers[i];
    if (v) out.set(key, { ok: true, ...v });
  });
  return out;
}

function actorOf(schedule: Schedule) {
  return actorFromEntity({ type: schedule.createdByType, id: schedule.createdById });
}

/**
 * Invoke every attempt: resolve its target afresh with its creator's standing and create the
 * executions under `limits` (SPEC §9, the caller's: the worker's or the API's), outcomes in the same
 * order. The engine records one run per attempt: SPEC §8 "every fire leaves one run record".
 *
 * Never fails for a refused fire: every outcome is a result (an unforeseen exception while resolving
 * becomes `internal_error` for the attempts that share that resolution). Throws only when a write
 * itself fails (the catalog's insert), which rolls the caller's transaction back.
 *
 * Shared reads: attempts with the same creator, target and workflow reference are resolved once per
 * call. Inside one transaction the answer cannot differ between them except through a concurrent
 * commit (PostgreSQL READ COMMITTED); sharing then means all of them fired at the instant of the
 * first resolution, which is when the batch fired.
 */
export async function invokeWorkflows(tx: Tx, attempts: Attempt[], limits: Parameters<WorkflowGateway['createExecutions']>[2], gateway: WorkflowGateway = embeddedGateway): Promise<DriverOutcome[]> {
  const resolved: (Resolution & { ok: true })[] = [];
  const requests: CreateExecutionRequest[] = [];
  const requestOf: number[] = [];
  const verified = new Map<number, CheckedExecution>();
  const outcomes: (DriverOutcome | undefined)[] = attempts.map(() => undefined);
  const keys = attempts.map((a) => resolutionKey(a.schedule, a.target));
  const resolutions = await resolveAll(tx, gateway, attempts, keys);

  // Serialization is desired: one transaction client runs one statement at a time.
  for (const [i, a] of attempts.entries()) {
    const { schedule, target: it, ctx } = a;
    let resolution = resolutions.get(keys[i]);
    if (!resolution) {
      resolution = await resolve(tx, gateway, schedule, it);
      resolutions.set(keys[i], resolution);
    }
    if (!resolution.ok) {
      outcomes[i] = outcome(resolution);
      continue;
    }
    if (resolution.checked) verified.set(requests.length, resolution.checked);
    resolved.push(resolution);
    requestOf.push(i);
    requests.push({
      actor: actorOf(schedule),
      revisionId: resolution.target.revisionId,
      sessionId: resolution.target.sessionId,
      definitionId: resolution.workflow.definitionId,
      inputData: await inputDataOf(it, ctx),
      description: schedule.description ?? undefined,
      scheduleId: schedule.id,
      runId: ctx.runId,
      now: ctx.now,
    });
  }

  let created: Awaited<ReturnType<WorkflowGateway['createExecutions']>> = [];
  try {
    created = requests.length ? await gateway.createExecutions(tx, requests, limits, verified) : [];
  } catch (thrown) {
    // An unforeseen exception: the catalog wrote nothing (its one insert is its last statement and is
    // atomic), so every fire of the batch that reached it is recorded as `internal_error`.
    const result = { error: 'internal_error', message: toError(thrown).message.slice(0, 1000) };
    for (const i of requestOf) outcomes[i] = outcome({ status: 'invocation_error', result });
  }
  for (const [k, c] of created.entries()) {
    const i = requestOf[k];
    const { target, workflow } = resolved[k];
    if (c.ok) {
      outcomes[i] = {
        ...outcome({ status: 'success', result: { execution_id: c.executionId, revision_id: target.revisionId, session_id: target.sessionId, definition_id: workflow.definitionId } }),
        executionId: c.executionId,
      };
    } else if (c.status === 'limit_exceeded') {
      outcomes[i] = outcome({ status: 'limit_exceeded', result: { error: 'limit_exceeded', limit: c.limit, message: c.message } });
    } else {
      outcomes[i] = outcome(failed(c.error, c.message));
    }
  }

  return outcomes as DriverOutcome[];
}

/** A workflow attempt's outcome: what it sent is the call itself (the engine describes it for a dead letter). */
function outcome(f: Failure): DriverOutcome {
  return { status: f.status, result: f.result, executionId: null, request: null, retryable: false };
}

/** SPEC §13.4: the string values inside `input_data` templated (what is sent, and what the run records). */
function templatedInputData<T>(inputData: T, attributes: ContextAttributes): T {
  return substituteInStrings(inputData, attributes);
}

/**
 * The fire's `input_data`: the target's own, or, when the API that saved the schedule asked for it
 * (SPEC §13.3: the EventBridge API, for a Target without Input) and there is none, the default event
 * of this occurrence as `[{"alias": "event", "value": <event>}]`.
 */
async function inputDataOf(it: InvocationTarget, ctx: Attempt['ctx']): Promise<InvocationTarget['input_data']> {
  // SPEC §13.4: the string values inside the target's own input_data are templated; the default event never is.
  if (it.input_data.length > 0) return JSON.stringify(it.input_data).includes('<') ? templatedInputData(it.input_data, await ctx.attributes()) : it.input_data;
  if (!ctx.defaultEventAsInput) return it.input_data;
  const event = defaultEvent({ scheduleId: ctx.scheduleId, scheduledFor: ctx.scheduledFor, trigger: ctx.trigger, ...(await ctx.identity()) });
  return [{ alias: 'event', value: { ...event, resources: [...event.resources] } }];
}

/** Target, then workflow reference, with the creator's standing (SPEC §6, §8 step 1). */
async function resolve(tx: Tx, gateway: WorkflowGateway, schedule: Schedule, it: InvocationTarget): Promise<Resolution> {
  try {
    const actor = actorOf(schedule);
    const target = await gateway.resolveTarget(tx, actor, it.target, 'write');
    if (!target.ok) return failure(target);
    const workflow = await gateway.resolveWorkflow(tx, actor, it.workflow, target.revisionId);
    if (!workflow.ok) return failure(workflow);
    return { ok: true, target, workflow };
  } catch (thrown) {
    return { ok: false, status: 'invocation_error', result: { error: 'internal_error', message: toError(thrown).message.slice(0, 1000) } };
  }
}

function failure(f: ResolveFailure): Resolution {
  return { ok: false, ...failed(f.error, f.message) };
}

function failed(error: InvocationError, message?: string): Failure {
  return { status: 'invocation_error', result: { error, ...(message ? { message } : {}) } };
}

/** What a save refuses, identically for every failure of the SPEC §6.3 check (so it never tells whether something exists). */
const TARGET_REFUSAL = 'invocation_target does not resolve to a writable draft revision, an open session in it, and a workflow definition you can read';

export const workflowDriver = defineDriver<InvocationTarget, unknown>({
  contract: WORKFLOW_TARGET,
  mode: 'in-transaction',
  // Parsed at save by the contract; a fire reads the stored JSON as it is (the gateway refuses what does
  // not resolve), but for an absent input_data, which reads as [] as the contract stores it: a row written
  // by hand or by an older version failed every fire with a TypeError.
  parse: (stored) => {
    const target = stored as InvocationTarget;
    return { ok: true, target: target.input_data === undefined ? { ...target, input_data: [] } : target };
  },
  // A workflow attempt sends nothing outside the database; its target holds no credential.
  redact: { sent: (request) => request, target: (target) => target },
  deliver: (tx, attempts, env) => invokeWorkflows(tx, attempts, env.limits),
  templated(stored, attributes) {
    const t = stored as { input_data?: unknown };
    return t.input_data === undefined ? stored : { ...t, input_data: templatedInputData(t.input_data, attributes) };
  },
  /**
   * SPEC §6.3: check, with the saver's standing, everything a fire will check. Every failure gets the
   * SAME `400 invalid_invocation_target` and message, so a refusal never tells whether something
   * exists. Returns the target to store: a pinned target's session rewritten to its id (SPEC §6.1);
   * with `allowMissingSession`, a session alias still to be created stays as written and is named.
   */
  async checkAtSave(tx, actor, it, { allowMissingSession }) {
    const checked = await checkInvocationTarget(embeddedGateway, tx, actor, it, { allowMissingSession });
    if (!checked.ok) throw new DomainError('invalid_invocation_target', TARGET_REFUSAL, { path: 'invocation_target' });
    if (checked.target === null) return { target: it, missingSession: checked.missingSession };
    if (checked.target.pinned) return { target: { ...it, target: { ...it.target, session: checked.target.sessionId } } };
    return { target: it };
  },
});
