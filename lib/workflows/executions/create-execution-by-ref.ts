import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import { type ExecutionJson, type InputDatum, type WorkflowRef, workflowRefProblem } from '../contract';
import { resolveWorkflowReference } from '../definitions/resolve-workflow-reference';
import { requireDraft, requireRevisionAccess } from '../guards';
import { requireSessionByRef } from '../sessions/find-session-by-ref';
import { createExecution, type ExecutionLimits } from './create-execution';

export interface CreateExecutionByRefOptions {
  actor: Actor;
  /** The route's revision: where `session` is resolved and the execution runs. */
  revisionId: string;
  /** `target.session`: a session id or alias of `revisionId` (SPEC §3.2). */
  session: string;
  /** `workflow`: a workflow reference (SPEC §6.2), bare or qualified. */
  workflow: WorkflowRef;
  /** `input_data` (SPEC §6), already validated (≤ 64 KiB). */
  inputData: InputDatum[];
  /** ≤ 256 chars. */
  description?: string;
  now: Date;
  /** The per-session limit (SPEC §9), from the caller's configuration. */
  limits: ExecutionLimits;
}

/**
 * The `create_execution` command (SPEC §3.2): resolve `target.session` in the route's revision and the
 * workflow reference (SPEC §6.2), then `createExecution`, in one transaction of its own. Needs `write` on the revision's blob and `read`
 * on a qualified source blob; a source the caller cannot read answers as a missing definition (SPEC §2).
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 session_not_found`
 *   (path `target.session`), `400 invalid_workflow_reference` (blob alias without org, org/revision
 *   without blob), `404 definition_not_found` (path `workflow.definition`), `409 session_not_open`,
 *   `429 limit_exceeded`.
 */
export async function createExecutionByRef(db: Db, opts: CreateExecutionByRefOptions): Promise<ExecutionJson> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    const session = await requireSessionByRef(tx, { revisionId: revision.id, session: opts.session, path: 'target.session' });
    const problem = workflowRefProblem(opts.workflow);
    if (problem) throw new DomainError('invalid_workflow_reference', problem.message, { path: problem.path });
    const resolved = await resolveWorkflowReference(tx, { actor: opts.actor, workflow: opts.workflow, targetRevisionId: revision.id });
    if (!resolved.ok) {
      throw new DomainError('definition_not_found', 'workflow definition not found', {
        path: 'workflow.definition',
      });
    }
    return createExecution(tx, {
      actor: opts.actor,
      revisionId: revision.id,
      sessionId: session.id,
      definitionId: resolved.definition.id,
      inputData: opts.inputData,
      description: opts.description,
      now: opts.now,
    }, opts.limits);
  });
}
