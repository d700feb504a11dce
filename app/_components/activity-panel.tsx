/**
 * The activity log's panel (SPEC §15) on a schedule's page and on a scheduler's page: the newest
 * entries, each with when (in the viewer's zone), who (a user or org by name; an access key by its id
 * and owner; "the scheduler" for the worker's automatic pause) and what (with the fields changed).
 * A server component: it reads the entries and names their actors itself.
 */
import Link from 'next/link';
import { LocalTime } from '@/components/local-time';
import { describeAuthEntities, type AuthEntity, type AuthEntityInfo } from '@/lib/auth';
import { listActivity, type ActivityAction, type ActivityActor, type ActivityEntry } from '@/lib/schedules';

type ListOptions = Parameters<typeof listActivity>[0];

const ACTION_WORDS: Record<ActivityAction, string> = {
  create: 'Created',
  update: 'Edited',
  enable: 'Enabled',
  disable: 'Disabled',
  pause_all: 'Pause all',
  resume_all: 'Resume all',
  run_now: 'Run now',
  delete: 'Deleted',
  replay_dead_letter: 'Replayed a dead letter',
  dismiss_dead_letter: 'Dismissed a dead letter',
  auto_pause: 'Paused automatically',
  metrics_per_schedule: 'Per-schedule metrics',
  backfill: 'Started a backfill',
  cancel_backfill: 'Cancelled a backfill',
};

function entityOf(by: ActivityActor): AuthEntity | null {
  if (by.type === 'user' || by.type === 'org') return by;
  if (by.type === 'access_key') return by.owner;
  return null;
}

function Who({ by, info }: { by: ActivityActor; info: AuthEntityInfo | undefined }) {
  if (by.type === 'system') return <span>the scheduler</span>;
  const owner = info ? (info.exists ? info.label : `${info.type === 'user' ? 'deleted user' : 'deleted org'} ${info.id}`) : '';
  if (by.type === 'access_key') {
    return (
      <span>
        access key <span className="mono small">{by.id}</span> <span className="muted small">of {owner}</span>
      </span>
    );
  }
  return (
    <span title={`${by.type} ${by.id}`}>
      {owner}
      <span className="muted small"> ({by.type === 'user' ? 'user' : 'org key'})</span>
    </span>
  );
}

function What({ entry, scheduleHref, showSchedule }: { entry: ActivityEntry; scheduleHref: (id: string) => string; showSchedule: boolean }) {
  const detail =
    entry.fields && entry.fields.length
      ? `: ${entry.fields.join(', ')}`
      : entry.count !== undefined
        ? entry.backfill_id
          ? ` (${entry.count} occurrence${entry.count === 1 ? '' : 's'})`
          : ` (${entry.count} schedule${entry.count === 1 ? '' : 's'})`
        : '';
  return (
    <span>
      {ACTION_WORDS[entry.action]}
      {detail}
      {showSchedule && entry.schedule_id ? (
        <>
          {' '}
          {entry.action === 'delete' ? (
            <span className="mono small">{entry.schedule_name ?? entry.schedule_id}</span>
          ) : (
            <Link href={scheduleHref(entry.schedule_id)} className="mono small">
              {entry.schedule_name ?? entry.schedule_id}
            </Link>
          )}
        </>
      ) : null}
    </span>
  );
}

/** The newest `limit` entries of a scheduler (`scheduleRef` absent) or of one schedule. */
export async function ActivityPanel({ list, limit, scheduleHref }: { list: Omit<ListOptions, 'pageSize' | 'startActivityId'>; limit: number; scheduleHref: (id: string) => string }) {
  const { activity, last_activity_id } = await listActivity({ ...list, pageSize: limit });
  const entities = activity.flatMap((e) => {
    const x = entityOf(e.by);
    return x ? [x] : [];
  });
  const infos = entities.length ? await describeAuthEntities(list.db, entities) : [];
  const infoOf = new Map(infos.map((i) => [`${i.type}:${i.id}`, i]));
  const perSchedule = list.scheduleRef !== undefined;
  return (
    <section className="container container-flush" aria-labelledby="activity-title" data-testid="activity">
      <div className="container-header">
        <h2 id="activity-title" className="container-title">
          Activity
        </h2>
        <span className="muted small">{last_activity_id ? `The newest ${limit}; list_activity pages the rest.` : 'Who changed what, newest first.'}</span>
      </div>
      {activity.length === 0 ? (
        <div className="empty-inline">
          <p>No changes recorded yet.</p>
        </div>
      ) : (
        <table className="table activity-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {activity.map((e) => {
              const x = entityOf(e.by);
              return (
                <tr key={e.id} data-action={e.action}>
                  <td className="small">
                    <LocalTime instant={e.at} />
                  </td>
                  <td>
                    <Who by={e.by} info={x ? infoOf.get(`${x.type}:${x.id}`) : undefined} />
                  </td>
                  <td>
                    <What entry={e} scheduleHref={scheduleHref} showSchedule={!perSchedule} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
