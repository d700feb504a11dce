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
import { countRecentExecutionsBySession, insertExecutions, type ExecutionInsert, type Tx } from '../../db';
import { actorKey } from '../../auth';
import { type DomainError, isDomainError } from '../../errors';
import { newId } from '../../ids';
import {
  checkExecution,
  countRecentExecutions,
  executionsLimitError,
  limitWindow,
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
export async function createExecutions(
  db: Tx,
  requests: CreateExecutionOptions[],
  limits: ExecutionLimits,
  verified?: ReadonlyMap<number, CheckedExecution>,
): Promise<CreateExecutionsResult[]> {
  const limit = limits.executionsPerSessionPerMinute;
  const checks = new Map<string, CheckedExecution | DomainError>();
  const inWindow = await prefetchWindows(db, requests);
  const inserts: ExecutionInsert[] = [];
  const results: CreateExecutionsResult[] = [];
  // Serialization is desired: the outcome of request k may depend on the requests before it (limit).
  for (const [i, req] of requests.entries()) {
    const key = JSON.stringify([actorKey(req.actor), req.revisionId, req.sessionId, req.definitionId]);
    // Checked by the caller's resolution in this same transaction (gateway `resolveForFires`).
    let checked = verified?.get(i) ?? checks.get(key);
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

/**
 * Every request's limit window counted at once when the batch has one instant (the fire path's
 * case): one grouped statement instead of one count per session. Keys `${sessionId}@${now ms}`, as
 * the loop reads them; a batch of several instants counts each window in the loop instead.
 */
async function prefetchWindows(db: Tx, requests: CreateExecutionOptions[]): Promise<Map<string, number>> {
  const windows = new Map<string, number>();
  const instants = new Set(requests.map((r) => r.now.getTime()));
  if (requests.length < 2 || instants.size !== 1) return windows;
  const now = requests[0].now;
  const sessions = [...new Set(requests.map((r) => r.sessionId))];
  const counts = await countRecentExecutionsBySession(db, sessions, ...limitWindow(now));
  for (const id of sessions) windows.set(`${id}@${now.getTime()}`, counts.get(id) ?? 0);
  return windows;
}
