/**
 * The consequences of a catalog change for schedules, in a confirmation's body (lib/schedules
 * catalog-impact.ts decides them): one sentence per kind of consequence ("3 schedules follow this
 * revision: they will fail with default_revision_committed until a draft is the default"), each with
 * the schedules it names, linked to their pages.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { AffectedSchedule, ScheduleImpact } from '@/lib/schedules';

/** The change the confirmation is about. */
export type ImpactChange = 'commit' | 'set_default' | 'delete_session' | 'delete_blob';

/** Schedules named per group; the rest are counted. */
const NAMED_PER_GROUP = 8;

const count = (n: number) => `${n} schedule${n === 1 ? '' : 's'}`;
const verb = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** Why a fire fails after the change, in words, by error and change. */
const WHY: Partial<Record<string, string>> = {
  'set_default:default_revision_committed': 'this revision is committed',
  'set_default:session_not_found': 'their session alias is not in this revision',
  'set_default:session_not_open': 'their session is closed in this revision',
  'set_default:workflow_not_found': 'their definition is not in this revision',
};

/** The sentence of one group: what these `n` schedules do now, and what becomes of their fires. */
function sentence(change: ImpactChange, s: AffectedSchedule, n: number): ReactNode {
  const o = s.outcome;
  const error = o.kind === 'fails' ? <code className="error-name">{o.error}</code> : null;
  const why = o.kind === 'fails' ? WHY[`${change}:${o.error}`] : undefined;
  const fails = (
    <>
      {verb(n, 'it', 'they')} will fail with {error}
      {why ? ` (${why})` : ''}
    </>
  );
  switch (change) {
    case 'commit':
      return s.aim === 'following' ? (
        <>
          {count(n)} {verb(n, 'follows', 'follow')} this revision: {fails} until a draft is the default.
        </>
      ) : (
        <>
          {count(n)} {verb(n, 'is', 'are')} pinned to this revision: {fails} (a committed revision runs no executions) until retargeted.
        </>
      );
    case 'set_default':
      if (o.kind === 'fires_into') return <>{count(n)} {verb(n, 'follows', 'follow')} this blob’s default revision: from {verb(n, 'its', 'their')} next fire on, {verb(n, 'it runs', 'they run')} in this revision.</>;
      if (o.kind === 'runs_definition') return <>{count(n)} {verb(n, 'runs a workflow', 'run workflows')} from this blob’s default revision: from {verb(n, 'its', 'their')} next fire on, {verb(n, 'it runs', 'they run')} this revision’s definition.</>;
      return s.aim === 'workflow' ? (
        <>
          {count(n)} {verb(n, 'runs a workflow', 'run workflows')} from this blob’s default revision: {fails}.
        </>
      ) : (
        <>
          {count(n)} {verb(n, 'follows', 'follow')} this blob’s default revision: {fails}.
        </>
      );
    case 'delete_session':
      return s.aim === 'pinned' ? (
        <>
          {count(n)} {verb(n, 'is', 'are')} pinned to this session: {fails}.
        </>
      ) : (
        <>
          {count(n)} {verb(n, 'follows', 'follow')} this session’s alias in the default revision: {fails} until a session with that alias exists there again.
        </>
      );
    case 'delete_blob':
      if (s.aim === 'workflow') return <>{count(n)} {verb(n, 'runs a workflow', 'run workflows')} from this blob: {fails}.</>;
      return s.aim === 'following' ? (
        <>
          {count(n)} {verb(n, 'follows', 'follow')} this blob’s default revision: {fails}.
        </>
      ) : (
        <>
          {count(n)} {verb(n, 'is', 'are')} pinned to a revision of this blob: {fails}.
        </>
      );
    default:
      return change satisfies never;
  }
}

/** The affected schedules grouped by how they aim and what becomes of them, in first-seen order. */
function groups(schedules: AffectedSchedule[]): AffectedSchedule[][] {
  const out = new Map<string, AffectedSchedule[]>();
  for (const s of schedules) {
    const key = `${s.aim}:${s.outcome.kind}:${s.outcome.kind === 'fails' ? s.outcome.error : ''}`;
    out.set(key, [...(out.get(key) ?? []), s]);
  }
  return [...out.values()];
}

/** The confirmation's account of what the change does to schedules; `none` when it affects none. */
export function ScheduleImpactList({ impact, change, none }: { impact: ScheduleImpact; change: ImpactChange; none: string }) {
  if (impact.schedules.length === 0 && impact.hidden === 0) return <p className="impact-none">{none}</p>;
  return (
    <div className="impact" data-testid="schedule-impact">
      {groups(impact.schedules).map((group) => (
        <div key={`${group[0].aim}-${group[0].outcome.kind}-${group[0].id}`} className="impact-group">
          <p className="impact-sentence">{sentence(change, group[0], group.length)}</p>
          <ul className="impact-schedules">
            {group.slice(0, NAMED_PER_GROUP).map((s) => (
              <li key={s.id}>
                <Link href={`/schedulers/${s.scheduler.revisionId}/schedules/${s.id}`} className="mono">
                  {s.label}
                </Link>{' '}
                <span className="muted small">
                  in {s.scheduler.name}
                  {s.enabled ? '' : ' · disabled (affected once enabled)'}
                </span>
              </li>
            ))}
            {group.length > NAMED_PER_GROUP ? <li className="muted small">and {group.length - NAMED_PER_GROUP} more</li> : null}
          </ul>
        </div>
      ))}
      {impact.hidden > 0 ? (
        <p className="impact-hidden small">
          {count(impact.hidden)} in schedulers you cannot read {verb(impact.hidden, 'is', 'are')} affected too.
        </p>
      ) : null}
    </div>
  );
}
