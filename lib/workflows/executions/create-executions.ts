/**
 * `create_execution` for many requests at once: the scheduler's fire path (SPEC §8 step 2) creates a
 * whole batch of executions inside its one transaction. Same checks, same order and same refusals as
 * `createExecution`, with the reads shared:
 * - the checks (`checkExecution`) run once per distinct (actor, revision, session, definition);
 * - the limit counts a session's window once per batch instant, then counts this batch's own accepted
 *   executions in memory, so the k-th request for a session is refused exactly when k sequential
 *   `createExecution` calls at the same instant would refuse it;
 * - the accepted executions are written by one multi-row insert (lib/db/sql/insert-executions.ts).
 * A refusal writes nothing for its request and does not affect the others.
 */
import { insertExecutions, type ExecutionInsert, type Tx } from '../../db';
import { type DomainError, isDomainError } from '../../errors';
import { newId } from '../../ids';
import {
  checkExecution,
  countRecentExecutions,
  executionsLimitError,
  type CheckedExecution,
  type CreateExecutionOptions,
  type ExecutionLimits,
} from './create-execution';

export type CreateExecutionsResult = { ok: true; executionId: string } | { ok: false; refusal: DomainError };

/**
 * Create the executions of `requests` (results in the same order), under the caller's `limits`.
 * Refusals are DomainErrors in the result; any other exception propagates (the caller's transaction
 * then rolls back).
 */
export async function createExecutions(db: Tx, requests: CreateExecutionOptions[], limits: ExecutionLimits): Promise<CreateExecutionsResult[]> {
  const limit = limits.executionsPerSessionPerMinute;
  const checks = new Map<string, CheckedExecution | DomainError>();
  const inWindow = new Map<string, number>();
  const inserts: ExecutionInsert[] = [];
  const results: CreateExecutionsResult[] = [];
  // Serialization is desired: the outcome of request k may depend on the requests before it (limit).
  for (const req of requests) {
    const key = JSON.stringify([req.actor.type, req.actor.id, req.actor.roleCap ?? null, req.revisionId, req.sessionId, req.definitionId]);
    let checked = checks.get(key);
    if (checked === undefined) {
      try {
        checked = await checkExecution(db, req);
      } catch (e) {
        if (!isDomainError(e)) throw e;
        checked = e;
      }
      checks.set(key, checked);
    }
    if (isDomainError(checked)) {
      results.push({ ok: false, refusal: checked });
      continue;
    }
    const windowKey = `${checked.session.id}@${req.now.getTime()}`;
    const recent = inWindow.get(windowKey) ?? (await countRecentExecutions(db, checked.session.id, req.now));
    if (recent >= limit) {
      inWindow.set(windowKey, recent);
      results.push({ ok: false, refusal: executionsLimitError(limit, recent, checked.session) });
      continue;
    }
    inWindow.set(windowKey, recent + 1);
    const id = newId();
    inserts.push({
      id,
      revisionId: checked.revision.id,
      sessionId: checked.session.id,
      definitionId: req.definitionId,
      description: req.description ?? null,
      inputData: req.inputData,
      createdByType: req.actor.type,
      createdById: req.actor.id,
      scheduleId: req.scheduleId ?? null,
      runId: req.runId ?? null,
      createdAt: req.now,
    });
    results.push({ ok: true, executionId: id });
  }
  await insertExecutions(db, inserts);
  return results;
}
