import type { Db } from '../../db';
import type { Actor } from '../../auth';
import { type ExecutionJson, PAGE_SIZE } from '../contract';
import { DomainError } from '../../errors';
import { requireRevisionAccess } from '../guards';
import { afterCursor, cutPage, pageOrder } from '../paging';
import { executionJson } from '../serialize';

export interface ListWorkflowExecutionsOptions {
  actor: Actor;
  revisionId: string;
  /** Only executions of this session (id only, SPEC §3.2). */
  sessionId?: string;
  /** Exclusive cursor: the `last_execution_id` of the previous page. */
  startExecutionId?: string;
  /** Items per page; default 50. */
  pageSize?: number;
}

/**
 * A page of a workflow revision's executions (SPEC §3.2 `list_workflow_executions`), newest first
 * (`created_at` desc, then `id` desc). Each carries `schedule_id`/`run_id` when a fire created it.
 * `lastExecutionId` is null on the last page. Needs `read`; any revision state.
 * @throws `404 not_found` (revision), `404 session_not_found` (session filter not in this revision),
 *   `400 invalid_request_body` (unknown cursor, path `start_execution_id`).
 */
export async function listWorkflowExecutions(
  db: Db,
  opts: ListWorkflowExecutionsOptions,
): Promise<{ executions: ExecutionJson[]; lastExecutionId: string | null }> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'read', blobType: 'workflow' });
  if (opts.sessionId !== undefined) {
    const session = await db.workflowSession.findFirst({ where: { id: opts.sessionId, revisionId: revision.id }, select: { id: true } });
    if (!session) throw new DomainError('session_not_found', 'session not found', { path: 'session_id' });
  }
  const size = opts.pageSize ?? PAGE_SIZE.executions;
  const scope = { revisionId: revision.id, ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}) };
  const cursor =
    opts.startExecutionId !== undefined
      ? afterCursor(
          await db.execution.findFirst({ where: { ...scope, id: opts.startExecutionId } }),
          'desc',
          'start_execution_id',
          opts.startExecutionId,
        )
      : {};
  const rows = await db.execution.findMany({ where: { ...scope, ...cursor }, orderBy: [...pageOrder('desc')], take: size + 1 });
  const { items, lastId } = cutPage(rows, size);
  return { executions: items.map(executionJson), lastExecutionId: lastId };
}
