/**
 * A fire's invocation (SPEC §8 steps 1–2), shared by scheduled attempts, retries and manual fires,
 * one or many at a time. Runs inside the caller's transaction, so the executions commit together
 * with the caller's claim, advance and run records (`recordRuns`).
 */
import { actorFromEntity } from '../auth';
import type { Limits } from '../config';
import { insertRuns, type RunInsert, type Tx } from '../db';
import { toError } from '../errors';
import { newId } from '../ids';
import {
  embeddedGateway,
  type CreateExecutionRequest,
  type CheckedExecution,
  type FireKey,
  type ResolvedTarget,
  type ResolvedWorkflow,
  type ResolveFailure,
  type WorkflowGateway,
} from '../workflows';
import type { InvocationError, InvocationTarget, RunResult, RunStatus, RunTrigger } from './contract';
import { defaultEvent } from '../delivery';
import { eventBridgeOrigin } from './default-event';
import type { ScheduleRow } from './serialize';

/** What a fire reads from its schedule row (as loaded, or claimed, in this transaction). */
export type FiringSchedule = Pick<ScheduleRow, 'id' | 'description' | 'invocationTarget' | 'createdByType' | 'createdById' | 'invocationTargetType' | 'eventbridge'>;

/** An http or aws target never reaches the catalog: the fire path delivers it (deliver-attempts.ts). A guard. */
const UNSUPPORTED_TARGET: RunResult = {
  error: 'unsupported_target',
  message: 'an http or aws target is delivered outside the workflow catalog, not invoked in it',
};

export interface InvokeOptions {
  /** The schedule as loaded (or claimed) in this transaction; the run copies its target and description. */
  schedule: FiringSchedule;
  trigger: RunTrigger;
  /** The occurrence instant (UTC); for a manual fire, `now`. */
  scheduledFor: Date;
  /** 1 for an occurrence's first attempt (and every manual fire), 2… for its retries. */
  attempt: number;
  /** The fire's instant: the run's and the execution's `created_at`. */
  now: Date;
}

export interface InvokeOutcome {
  runId: string;
  status: RunStatus;
  result: RunResult;
  executionId: string | null;
}

/** What a run records besides the invocation's outcome (SPEC §8.1, §12.2, §12.3). */
export interface RunExtras {
  nextAttemptAt?: Date | null;
  exhausted?: string | null;
  deadLetterId?: string | null;
}

/**
 * Insert one run per invoked item (same order as `outcomes`), with its retry fields.
 * Exactly once (SPEC §8): UNIQUE (schedule_id, scheduled_for, trigger, attempt) refuses a second run for
 * the same attempt; the caller's transaction then rolls back the executions created for it.
 */
export async function recordRuns(tx: Tx, items: InvokeOptions[], outcomes: InvokeOutcome[], extras: RunExtras[] = []): Promise<void> {
  const runs: RunInsert[] = items.map((item, i) => ({
    id: outcomes[i].runId,
    scheduleId: item.schedule.id,
    scheduledFor: item.scheduledFor,
    trigger: item.trigger,
    attempt: item.attempt,
    status: outcomes[i].status,
    result: outcomes[i].result,
    executionId: outcomes[i].executionId,
    nextAttemptAt: extras[i]?.nextAttemptAt ?? null,
    exhausted: extras[i]?.exhausted ?? null,
    deadLetterId: extras[i]?.deadLetterId ?? null,
    createdAt: item.now,
  }));
  await insertRuns(tx, runs);
}

/** One fire, invoked and recorded (a manual fire: `run_schedule`, `replay_dead_letter`). */
export async function invokeAndRecord(tx: Tx, opts: InvokeOptions, limits: Limits, extras: RunExtras = {}): Promise<InvokeOutcome> {
  const [outcome] = await invokeTargets(tx, [opts], limits);
  await recordRuns(tx, [opts], [outcome], [extras]);
  return outcome;
}

type Resolution =
  /** `checked`: what `resolveForFires` proved of `create_execution`'s checks (not read again). */
  | { ok: true; target: ResolvedTarget; workflow: ResolvedWorkflow; checked?: CheckedExecution }
  | { ok: false; status: RunStatus; result: RunResult };

/** Items with the same creator, target and workflow reference share one resolution. */
function resolutionKey(schedule: FiringSchedule, it: InvocationTarget): string {
  return JSON.stringify([schedule.createdByType, schedule.createdById, it.target, it.workflow]);
}

/**
 * The batch's distinct workflow fires resolved at once (`gateway.resolveForFires`: a constant number
 * of statements however many targets). A key it does not decide is absent: the loop resolves it
 * with `resolve`, one key at a time, which names its failure.
 */
async function resolveAll(tx: Tx, gateway: WorkflowGateway, items: InvokeOptions[], keys: string[]): Promise<Map<string, Resolution>> {
  const distinct = new Map<string, FireKey>();
  for (const [i, { schedule }] of items.entries()) {
    // keys[i] is '' for an item that is not a workflow fire.
    if (!keys[i] || distinct.has(keys[i])) continue;
    const it = schedule.invocationTarget as InvocationTarget;
    distinct.set(keys[i], { actor: actorOf(schedule), target: it.target, workflow: it.workflow });
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

function actorOf(schedule: FiringSchedule) {
  return actorFromEntity({ type: schedule.createdByType as 'user' | 'org', id: schedule.createdById });
}

/**
 * Invoke every item: resolve its target afresh with its creator's standing and create the executions
 * under `limits` (SPEC §9, the caller's: the worker's or the API's)
 * (outcomes in the same order). The caller records one run per item (`recordRuns`): SPEC §8 "every
 * fire leaves one run record".
 *
 * Never fails for a refused fire: every outcome is a result (an unforeseen exception while resolving
 * becomes `internal_error` for the items that share that resolution). Throws only when a write itself
 * fails (the catalog's insert), which rolls the caller's transaction back.
 *
 * Shared reads: items with the same creator, target and workflow reference are resolved once per
 * call. Inside one transaction the answer cannot differ between them except through a concurrent
 * commit (PostgreSQL READ COMMITTED); sharing then means all of them fired at the instant of the
 * first resolution, which is when the batch fired.
 */
export async function invokeTargets(
  tx: Tx,
  items: InvokeOptions[],
  limits: Limits,
  gateway: WorkflowGateway = embeddedGateway,
): Promise<InvokeOutcome[]> {
  const runIds = items.map(() => newId());
  const resolved: (Resolution & { ok: true })[] = [];
  const requests: CreateExecutionRequest[] = [];
  const requestOf: number[] = [];
  const verified = new Map<number, CheckedExecution>();
  const outcomes: (InvokeOutcome | undefined)[] = items.map(() => undefined);
  const keys = items.map((item) => ((item.schedule.invocationTargetType ?? 'workflow') === 'workflow' ? resolutionKey(item.schedule, item.schedule.invocationTarget as InvocationTarget) : ''));
  const resolutions = await resolveAll(tx, gateway, items, keys);

  // Serialization is desired: one transaction client runs one statement at a time.
  for (const [i, item] of items.entries()) {
    const { schedule } = item;
    if ((schedule.invocationTargetType ?? 'workflow') !== 'workflow') {
      // SPEC §13: http and aws attempts are delivered after commit (fire-occurrence.ts), never here.
      outcomes[i] = { runId: runIds[i], status: 'invocation_error', result: UNSUPPORTED_TARGET, executionId: null };
      continue;
    }
    const it = schedule.invocationTarget as InvocationTarget;
    let resolution = resolutions.get(keys[i]);
    if (!resolution) {
      resolution = await resolve(tx, gateway, schedule, it);
      resolutions.set(keys[i], resolution);
    }
    if (!resolution.ok) {
      outcomes[i] = { runId: runIds[i], status: resolution.status, result: resolution.result, executionId: null };
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
      inputData: inputDataOf(schedule, it, item),
      description: schedule.description ?? undefined,
      scheduleId: schedule.id,
      runId: runIds[i],
      now: item.now,
    });
  }

  let created: Awaited<ReturnType<WorkflowGateway['createExecutions']>> = [];
  try {
    created = requests.length ? await gateway.createExecutions(tx, requests, limits, verified) : [];
  } catch (thrown) {
    // An unforeseen exception: the catalog wrote nothing (its one insert is its last statement and is
    // atomic), so every fire of the batch that reached it is recorded as `internal_error`.
    const result: RunResult = { error: 'internal_error', message: toError(thrown).message.slice(0, 1000) };
    for (const i of requestOf) outcomes[i] = { runId: runIds[i], status: 'invocation_error', result, executionId: null };
  }
  for (const [k, c] of created.entries()) {
    const i = requestOf[k];
    const { target, workflow } = resolved[k];
    if (c.ok) {
      outcomes[i] = {
        runId: runIds[i],
        status: 'success',
        result: { execution_id: c.executionId, revision_id: target.revisionId, session_id: target.sessionId, definition_id: workflow.definitionId },
        executionId: c.executionId,
      };
    } else if (c.status === 'limit_exceeded') {
      outcomes[i] = { runId: runIds[i], status: 'limit_exceeded', result: { error: 'limit_exceeded', limit: c.limit, message: c.message }, executionId: null };
    } else {
      outcomes[i] = { runId: runIds[i], ...failed(c.error, c.message), executionId: null };
    }
  }

  return outcomes as InvokeOutcome[];
}

/**
 * The fire's `input_data`: the target's own, or, for a schedule saved through the EventBridge API
 * without `Target.Input`, the default event of this occurrence (SPEC §13.3).
 */
function inputDataOf(schedule: FiringSchedule, it: InvocationTarget, fire: { scheduledFor: Date; trigger: RunTrigger }): InvocationTarget['input_data'] {
  const origin = it.input_data.length === 0 ? eventBridgeOrigin(schedule.eventbridge) : null;
  if (!origin) return it.input_data;
  const event = defaultEvent({ scheduleId: schedule.id, scheduledFor: fire.scheduledFor, trigger: fire.trigger, account: origin.account, region: origin.region, scheduleArn: origin.arn });
  return [{ alias: 'event', value: { ...event, resources: [...event.resources] } }];
}

/** Target, then workflow reference, with the creator's standing (SPEC §6, §8 step 1). */
async function resolve(tx: Tx, gateway: WorkflowGateway, schedule: FiringSchedule, it: InvocationTarget): Promise<Resolution> {
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

function failed(error: InvocationError, message?: string): { status: RunStatus; result: RunResult } {
  const result: RunResult = { error, ...(message ? { message } : {}) };
  return { status: 'invocation_error', result };
}
