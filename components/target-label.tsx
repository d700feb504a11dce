import type { InvocationTarget } from '@/lib/schedules/contract';
import { targetLabel } from './format';

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, 8)}…` : s);

/**
 * `org/blob @ revision / session` (SPEC §6.1) on two lines that break only between parts; long ids
 * are shortened on screen and given in full in the title.
 */
export function TargetLabel({ target }: { target: InvocationTarget['target'] }) {
  return (
    <div className="cell-stack" title={targetLabel(target)}>
      <span className="mono small nowrap">{`${target.org ? `${target.org}/` : ''}${clip(target.blob, 40)}`}</span>
      <span className="mono small muted">
        <span className="nowrap">@ {clip(target.revision, 16)}</span> <span className="nowrap">/ {clip(target.session, 24)}</span>
      </span>
    </div>
  );
}
