/**
 * The workflow target ARN of the EventBridge-compatible API (SPEC §14):
 *   arn:aws:scheduler:<region>:<account>:workflow/<org>/<blob>/<revision or default>/<session>/<definition>
 * names the SPEC §6 target `{org, blob, revision, session}` and the bare workflow reference
 * `{definition}` (looked up in the target's revision). `-` as the org means none (a blob named by id).
 * The region part is not used to resolve: the org, blob and session do, with the saver's standing
 * (SPEC §6.3). The account part, when given, must be the caller's (`workflowArnAccount`).
 */
import { arnPartition } from '../../config';
import type { InvocationTarget } from '../../schedules';

const WORKFLOW_ARN = /^arn:aws(?:-[a-z]+)*:scheduler:([a-z0-9-]*):(\d{12}|):workflow\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/;

/** The target and workflow reference of a workflow ARN, or null when `arn` is not one. */
export function parseWorkflowArn(arn: string): Pick<InvocationTarget, 'target' | 'workflow'> | null {
  const m = WORKFLOW_ARN.exec(arn);
  if (!m) return null;
  const [, , , org, blob, revision, session, definition] = m;
  return { target: { ...(org === '-' ? {} : { org }), blob, revision, session }, workflow: { definition } };
}

/** The account part of workflow ARN `arn` ('' when left out), or null when `arn` is not one. */
export function workflowArnAccount(arn: string): string | null {
  const m = WORKFLOW_ARN.exec(arn);
  return m ? m[2] : null;
}

/**
 * How a workflow target in account `account`, not the caller's, is refused (a ValidationException):
 * the wording AWS uses for a target the schedule cannot reach is not recorded (decisions 253).
 */
export const unreachableTargetMessage = (arn: string, account: string) =>
  `Invalid target ${arn}: account ${account} is not the schedule's account; EventBridge Scheduler cannot reach a workflow in another account.`;

/** True when `arn` has the workflow ARN's prefix (so a malformed one is refused rather than stored as another service's). */
export function looksLikeWorkflowArn(arn: string): boolean {
  return /^arn:aws(?:-[a-z]+)*:scheduler:[^:]*:[^:]*:workflow\//.test(arn);
}

/**
 * The workflow ARN of a stored target (for schedules made outside the EventBridge API). A qualified
 * workflow reference (another blob) has no ARN form: its definition is written as if bare.
 */
export function workflowArnOf(region: string, accountId: string, it: Pick<InvocationTarget, 'target' | 'workflow'>): string {
  const t = it.target;
  return `arn:${arnPartition(region)}:scheduler:${region}:${accountId}:workflow/${t.org ?? '-'}/${t.blob}/${t.revision}/${t.session}/${it.workflow.definition}`;
}
