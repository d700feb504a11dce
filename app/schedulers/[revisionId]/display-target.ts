/**
 * The grid and the run history show a target as a workflow target's parts. An `http` or `aws` target
 * (stored by the EventBridge API, SPEC §14) is shown in those parts: its URL or ARN as the blob, its
 * type as the revision, until the targets work gives them their own display.
 */
import type { InvocationTarget, InvocationTargetType } from '@/lib/schedules';

export function displayTarget(type: InvocationTargetType, target: InvocationTarget): Pick<InvocationTarget, 'target' | 'workflow'> {
  if (type === 'workflow') return { target: target.target, workflow: target.workflow };
  const raw = target as unknown as { url?: string; arn?: string };
  return { target: { blob: raw.url ?? raw.arn ?? '', revision: type, session: 'not delivered by this build' }, workflow: { definition: '—' } };
}
