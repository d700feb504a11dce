import type { ShownTarget } from './display-target';
import { targetLabel } from './format';

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, 8)}…` : s);
/** A long URL or ARN: its start and its end, the middle elided. */
const elide = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 18)}…${s.slice(-16)}` : s);

/**
 * A target on two lines that break only between parts (SPEC §6.1, §13): a workflow target as
 * `org/blob @ revision / session`, long ids shortened on screen and given in full in the title; a
 * webhook or an AWS target as its headline ("Webhook POST https://…", "SQS queue orders (eu-west-1)")
 * and what each fire sends.
 */
export function TargetLabel({ shown }: { shown: ShownTarget }) {
  if (shown.kind !== 'workflow') {
    return (
      <div className="cell-stack" title={`${shown.label}\n${shown.address}`} data-target-kind={shown.kind}>
        <span className="small break">{elide(shown.label, 72)}</span>
        <span className="muted small">{shown.detail}</span>
      </div>
    );
  }
  const { target } = shown;
  return (
    <div className="cell-stack" title={targetLabel(target)} data-target-kind="workflow">
      <span className="mono small nowrap">{`${target.org ? `${target.org}/` : ''}${clip(target.blob, 40)}`}</span>
      <span className="mono small muted">
        <span className="nowrap">@ {clip(target.revision, 16)}</span> <span className="nowrap">/ {clip(target.session, 24)}</span>
      </span>
    </div>
  );
}
