/**
 * The grid and the run history show a target as a workflow target's parts. An `http` or `aws` target
 * (stored by the EventBridge API, SPEC §14) is shown in those parts: its URL or ARN as the blob, its
 * type as the revision, until the targets work gives them their own display.
 */
import type { InvocationTarget, TargetFields } from '@/lib/schedules/contract';

export function displayTarget(t: TargetFields): Pick<InvocationTarget, 'target' | 'workflow'> {
  if (t.invocation_target_type === 'workflow') return { target: t.invocation_target.target, workflow: t.invocation_target.workflow };
  const where = t.invocation_target_type === 'http' ? t.invocation_target.url : t.invocation_target.arn;
  return { target: { blob: where, revision: t.invocation_target_type, session: 'not delivered by this build' }, workflow: { definition: '—' } };
}
