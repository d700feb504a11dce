/**
 * One fire's invocation (SPEC §8 steps 1–2 and the run record of §8.1), shared by scheduled and
 * manual fires. Runs inside the caller's transaction, so the execution and the run commit together.
 */
import { actorFromEntity } from '../auth';
import type { Tx } from '../db';
import { toError } from '../errors';
import { newId } from '../ids';
import { embeddedGateway } from '../workflows';
import type { InvocationError, InvocationTarget, RunResult, RunStatus, RunTrigger } from './contract';
import type { ScheduleRow } from './serialize';

export interface InvokeOptions {
  /** The schedule as loaded in this transaction. */
  schedule: ScheduleRow;
  trigger: RunTrigger;
  /** The occurrence instant (UTC); for a manual fire, `now`. */
  scheduledFor: Date;
  now: Date;
}

export interface InvokeOutcome {
  runId: string;
  status: RunStatus;
  result: RunResult;
  executionId: string | null;
}

/**
 * Resolve the target afresh with the creator's standing, create the execution, and insert the run.
 * Never throws for a refused fire: every outcome is a run record (SPEC §8: "every fire leaves one run
 * record"; an unforeseen exception becomes `internal_error`). Throws only when the run insert itself
 * fails (e.g. the UNIQUE (schedule_id, scheduled_for, trigger) guard), which rolls the fire back.
 */
export async function invokeTarget(tx: Tx, opts: InvokeOptions): Promise<InvokeOutcome> {
  const { schedule, trigger, scheduledFor, now } = opts;
  const target = schedule.invocationTarget as InvocationTarget;
  const runId = newId();
  let status: RunStatus;
  let result: RunResult;
  let executionId: string | null = null;
  try {
    const outcome = await attempt(tx, schedule, target, runId, now);
    ({ status, result } = outcome);
    executionId = outcome.executionId;
  } catch (thrown) {
    status = 'invocation_error';
    result = { error: 'internal_error', message: toError(thrown).message.slice(0, 1000) };
  }
  // Exactly once (SPEC §8): UNIQUE (schedule_id, scheduled_for, trigger) refuses a second run for the
  // same occurrence; the caller's transaction then rolls back the execution created above.
  await tx.run.create({
    data: {
      id: runId,
      scheduleId: schedule.id,
      scheduledFor,
      trigger,
      invocationTarget: target,
      description: schedule.description,
      status,
      result,
      executionId,
      createdAt: now,
    },
  });
  return { runId, status, result, executionId };
}

async function attempt(tx: Tx, schedule: ScheduleRow, it: InvocationTarget, runId: string, now: Date) {
  const actor = actorFromEntity({ type: schedule.createdByType as 'user' | 'org', id: schedule.createdById });
  const target = await embeddedGateway.resolveTarget(tx, actor, it.target, 'write');
  if (!target.ok) return failed(target.error, target.message);
  const workflow = await embeddedGateway.resolveWorkflow(tx, actor, it.workflow, target.revisionId);
  if (!workflow.ok) return failed(workflow.error, workflow.message);
  const created = await embeddedGateway.createExecution(tx, {
    actor,
    revisionId: target.revisionId,
    sessionId: target.sessionId,
    definitionId: workflow.definitionId,
    inputData: it.input_data,
    description: schedule.description ?? undefined,
    scheduleId: schedule.id,
    runId,
    now,
  });
  if (created.ok) {
    return {
      status: 'success' as const,
      result: { execution_id: created.executionId, revision_id: target.revisionId, session_id: target.sessionId, definition_id: workflow.definitionId },
      executionId: created.executionId,
    };
  }
  if (created.status === 'limit_exceeded') {
    return { status: 'limit_exceeded' as const, result: { error: 'limit_exceeded' as const, limit: created.limit, message: created.message }, executionId: null };
  }
  return failed(created.error, created.message);
}

function failed(error: InvocationError, message?: string) {
  const result: RunResult = { error, ...(message ? { message } : {}) };
  return { status: 'invocation_error' as const, result, executionId: null };
}
