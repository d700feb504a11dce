import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { DomainError } from '../../errors';
import type { ExecutionJson } from '../contract';
import { requireRevisionAccess } from '../guards';
import { executionJson } from '../serialize';

export interface GetWorkflowExecutionOptions {
  actor: Actor;
  /** The workflow revision the execution belongs to (a run's `result.revision_id`). */
  revisionId: string;
  executionId: string;
}

/**
 * One workflow execution of a revision (the shape of SPEC §3.2 `list_workflow_executions` items), for
 * the page a run's history links to. Needs `read` on the workflow blob.
 * @throws `404 not_found` (revision missing or not readable), `404 execution_not_found` (no such
 *   execution in this revision, e.g. deleted with its session).
 */
export async function getWorkflowExecution(db: Db, opts: GetWorkflowExecutionOptions): Promise<ExecutionJson> {
  const { revision } = await requireRevisionAccess(db, { actor: opts.actor, revisionId: opts.revisionId, need: 'read', blobType: 'workflow' });
  const row = await db.execution.findFirst({ where: { id: opts.executionId, revisionId: revision.id } });
  if (!row) throw new DomainError('execution_not_found', 'execution not found');
  return executionJson(row);
}
