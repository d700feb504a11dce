/**
 * The `workflow` target type's contract (SPEC §6, §8.1): where a fire runs in the embedded workflow
 * catalog (`target`), what it runs (`workflow`) and the `input_data` it sends, the `result` shapes its
 * runs record, and its words. Universal (no I/O, no Node import). The catalog's own pieces
 * (`TargetRefSchema`, `WorkflowRefSchema`, `InputDataSchema`, the run-error names) are lib/workflows'.
 */
import { z } from 'zod';
import { isIdShape } from '../../ids';
import { IdSchema, InputDataSchema, TargetRefSchema, WorkflowRefSchema, workflowRefProblem } from '../../workflows/contract';
import { defineTargetContract, refuse } from '../define';

/** `invocation_target` (SPEC §6), with the pure target and workflow-reference rules as coded issues. */
export const InvocationTargetSchema = z
  .object({ target: TargetRefSchema, workflow: WorkflowRefSchema, input_data: InputDataSchema.default([]) })
  .strict()
  .superRefine((t, ctx) => {
    const { target, workflow } = t;
    if (!isIdShape(target.blob) && !target.org) {
      refuse(ctx, 'target.blob is an alias, so target.org is required', ['target', 'org']);
    }
    const following = target.revision === 'default';
    if (!following && !isIdShape(target.revision)) {
      refuse(ctx, 'target.revision must be a revision id or "default"', ['target', 'revision']);
    }
    if (following && isIdShape(target.session)) {
      refuse(ctx, 'a following target (revision "default") names its session by alias, not by id', ['target', 'session']);
    }
    const refProblem = workflowRefProblem(workflow);
    if (refProblem) refuse(ctx, refProblem.message, refProblem.path.split('.'), 'invalid_workflow_reference');
    if (workflow.revision !== undefined && workflow.revision !== 'default' && !isIdShape(workflow.revision)) {
      refuse(ctx, 'workflow.revision must be a revision id or "default"', ['workflow', 'revision'], 'invalid_workflow_reference');
    }
    const definitionFollowsDefault =
      workflow.blob !== undefined ? (workflow.revision ?? 'default') === 'default' : following;
    if (definitionFollowsDefault && isIdShape(workflow.definition)) {
      refuse(ctx, 'workflow.definition follows a default revision, so it must be an alias (a branch gives definitions new ids)', ['workflow', 'definition']);
    }
  });
export type InvocationTarget = z.infer<typeof InvocationTargetSchema>;

/** A workflow fire's `result` on success (SPEC §8.1): the ids it resolved to and the execution it created. */
export const WorkflowSuccessSchema = z.strictObject({ execution_id: IdSchema, revision_id: IdSchema, session_id: IdSchema, definition_id: IdSchema });
/** A workflow fire refused by a limit (SPEC §8.1, §9): `limit_exceeded` and the limit's name. */
export const LimitExceededSchema = z.strictObject({ error: z.literal('limit_exceeded'), limit: z.string(), message: z.string() });

/** `org/blob @ revision / session` (SPEC §6.1): the target's parts, as the web app writes them. */
export function targetRefLabel(t: InvocationTarget['target']): string {
  return `${t.org ? `${t.org}/` : ''}${t.blob} @ ${t.revision} / ${t.session}`;
}

/** Where the workflow comes from when it is qualified (SPEC §6.2: `org/blob @ revision`), else null (the target's own revision). */
export function workflowSourceLabel(w: InvocationTarget['workflow']): string | null {
  if (!w.blob) return null;
  return `${w.org ? `${w.org}/` : ''}${w.blob} @ ${w.revision ?? 'default'}`;
}

/** The `workflow` target type (SPEC §6): the first of the registry, the type a request may leave out. */
export const WORKFLOW_TARGET = defineTargetContract({
  type: 'workflow',
  save: InvocationTargetSchema,
  stored: InvocationTargetSchema,
  results: [WorkflowSuccessSchema, LimitExceededSchema],
  looksLike: (t) => 'target' in t || 'workflow' in t,
  address: (_t, scheduleId) => `workflow:${scheduleId}`,
  catalogRef: (t) => t.target,
  words: {
    title: 'Workflow',
    noun: 'a workflow',
    choice: 'Start a workflow execution in the catalog.',
    intro: 'Where each fire starts its workflow execution: a session of a workflow blob’s revision.',
    label: (t) => targetRefLabel(t.target),
    detail: (t) => `runs ${t.workflow.definition}`,
  },
});
