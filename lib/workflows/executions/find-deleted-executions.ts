import type { Tx } from '../../db';

/** An execution a run record names (SPEC §8.1 `result` of a `success` run). */
export interface RunExecutionRef {
  executionId: string;
  /** The revision it ran in (`result.revision_id`). */
  revisionId: string;
}

/** Why an execution a run created is gone: its session was deleted, or its whole revision or blob. */
export type DeletedExecutionCause = 'session_deleted' | 'revision_deleted';

/**
 * For a schedule's history (SPEC §8.1): which of the executions its runs created no longer exist, and
 * why (executions go with their session, revision or blob: ON DELETE CASCADE; the retention sweep
 * never takes one a remaining run links, docs/decisions.md 116). Keyed by execution
 * id; executions that exist are absent. Two indexed lookups whatever the number of refs. No access
 * check: it says only whether ids a run record already shows still exist.
 */
export async function findDeletedExecutions(db: Tx, refs: RunExecutionRef[]): Promise<Map<string, DeletedExecutionCause>> {
  const out = new Map<string, DeletedExecutionCause>();
  if (refs.length === 0) return out;
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  const [executions, revisions] = await Promise.all([
    db.execution.findMany({ where: { id: { in: uniq(refs.map((r) => r.executionId)) } }, select: { id: true } }),
    db.revision.findMany({ where: { id: { in: uniq(refs.map((r) => r.revisionId)) } }, select: { id: true } }),
  ]);
  const present = new Set(executions.map((e) => e.id));
  const revisionIds = new Set(revisions.map((r) => r.id));
  for (const r of refs) {
    if (present.has(r.executionId)) continue;
    // Executions are deleted only with their session (or revision, or blob): a gone execution whose
    // revision is still there went with its session.
    out.set(r.executionId, revisionIds.has(r.revisionId) ? 'session_deleted' : 'revision_deleted');
  }
  return out;
}
