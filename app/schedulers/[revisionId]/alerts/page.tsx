import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/app/_components/action-form';
import { DataTable } from '@/app/_components/data-table';
import { revisionOf, schedulerPage } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { backCursors, CursorPager, cursorQuery } from '@/components/cursor-pager';
import { LocalTime } from '@/components/local-time';
import { isDomainError } from '@/lib/errors';
import { ALERT_EVENTS, ALERTS_PAGE_SIZE, alertChannelChoices, failingAlertChannels, listAlertRules, listAlerts, listSchedules, type AlertEntry } from '@/lib/schedules';
import { addAlertRuleAction, deleteAlertRuleAction, setAlertRuleEnabledAction } from '../alert-actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

interface Props {
  params: Promise<{ revisionId: string }>;
  searchParams: Promise<SearchParams>;
}

const RULE_COLUMNS = [{ label: 'Applies to' }, { label: 'Events' }, { label: 'Channels' }, { label: 'Settings' }, { label: 'State' }, { label: 'Actions' }];
const LOG_COLUMNS = [{ label: 'Raised' }, { label: 'Schedule' }, { label: 'Event' }, { label: 'Channel' }, { label: 'Status' }, { label: 'Channel answer' }];
const EVENT_WORDS: Record<(typeof ALERT_EVENTS)[number], string> = {
  failure: 'failure — an occurrence ends failed (its last attempt, or its outcome) for the tolerated number of times in a row',
  dead_letter: 'dead letter — an occurrence enters the dead-letter list',
  missed: 'missed — occurrences skipped beyond the catch-up window or by the overlap policy',
  silence: 'silence — an enabled schedule has had no successful occurrence for the silence period',
  paused: 'paused — the worker paused the schedule (pause after failures)',
  recovered: 'recovered — the first success after an alerted failure or silence',
};
const STATUS_BADGE = { sent: 'badge badge-ok', pending: 'badge badge-warn', failed: 'badge badge-error' } as const;

/**
 * A scheduler's alerts (SPEC §17): its rules (which events of which schedules alert which channels),
 * a form to add one, and the alert log — every notification, newest first, 20 a page (`?cursor=`,
 * `?back=` as the dead letters page), with the channel's answer.
 */
export default async function AlertsPage({ params, searchParams }: Props) {
  const [{ revisionId: rawId }, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler } = await schedulerPage(rawId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const base = `/schedulers/${revisionId}`;
  const selfHref = `${base}/alerts`;
  const cursor = param(sp, 'cursor') || null;
  const back = backCursors(param(sp, 'back'), cursor);
  const canWrite = scheduler.role !== 'read';
  let page: { alerts: AlertEntry[]; last_alert_id: string | null } | null = null;
  try {
    page = await listAlerts({ db, actor, revision, startAlertId: cursor });
  } catch (e) {
    if (!(isDomainError(e) && e.code === 'invalid_request_body')) throw e;
  }
  const [rules, channels, failing, schedules] = await Promise.all([
    listAlertRules({ db, actor, revision }),
    alertChannelChoices({ db, actor, revision }),
    failingAlertChannels(db, revisionId),
    listSchedules({ db, actor, revision }),
  ]);
  const names = new Map(schedules.schedules.map((s) => [s.id, s.alias ?? s.id]));
  const pageHref = (c: string | null, backs: string[]) => {
    const q = cursorQuery(new URLSearchParams(), 'cursor', c, backs).toString();
    return q ? `${selfHref}?${q}` : selfHref;
  };
  const orgAdmin = `/orgs/${scheduler.org.alias ?? scheduler.org.id}/admin`;

  return (
    <div className="page page-wide">
      <AutoRefresh intervalMs={10_000} />
      <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label: 'Alerts' }]} />
      <div className="page-header">
        <div>
          <h1>Alerts</h1>
          <p className="page-intro">
            Who is told when schedules of {scheduler.name} fail, go silent, are paused by the worker or recover. Channels belong to the organization (
            <Link href={orgAdmin}>its admin page</Link>); rules here name them.
          </p>
        </div>
      </div>
      {failing.length > 0 ? (
        <div className="alert alert-error" role="alert" data-testid="alert-channels-failing">
          {failing.map((c) => (
            <p key={c.id}>
              Alert channel <strong>{c.name}</strong> is failing: its last send answered {c.message}. Alerts to it are retried for 24 hours.
            </p>
          ))}
        </div>
      ) : null}

      <section className="container stack" aria-labelledby="alert-rules-title">
        <h2 id="alert-rules-title" className="container-title">
          Rules
        </h2>
        {rules.length === 0 ? (
          <div className="empty-inline" data-testid="alert-rules-empty">
            <p>No alert rules: nobody is told when a schedule of {scheduler.name} fails.</p>
            <p className="muted small">
              A rule names the events to alert on and the channels to send them to, for every schedule of this scheduler or for one schedule.
              {channels.length === 0 ? ' First add a channel on the organization admin page.' : ''}
            </p>
          </div>
        ) : (
          <DataTable label="Alert rules" columns={RULE_COLUMNS} compact>
            {rules.map((r) => (
              <tr key={r.id} data-testid="alert-rule">
                <td>{r.schedule_id ? <Link href={`${base}/schedules/${r.schedule_id}`}>{names.get(r.schedule_id) ?? r.schedule_id}</Link> : 'All schedules'}</td>
                <td>{r.events.join(', ')}</td>
                <td>{r.channels.map((c) => c.name).join(', ')}</td>
                <td className="small">
                  {[
                    r.events.includes('failure') ? `tolerance ${r.failure_tolerance}` : null,
                    r.silence_seconds ? `silence after ${r.silence_seconds} s` : null,
                    r.realert_interval_seconds ? `re-alert every ${r.realert_interval_seconds} s` : 'no re-alert',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </td>
                <td>{r.enabled ? <span className="badge badge-ok">enabled</span> : <span className="badge badge-muted">disabled</span>}</td>
                <td>
                  {canWrite ? (
                    <>
                      <ActionForm action={setAlertRuleEnabledAction.bind(null, revisionId, r.id, !r.enabled)} submitLabel={r.enabled ? 'Disable' : 'Enable'} label={`${r.enabled ? 'Disable' : 'Enable'} the rule`} />
                      <ActionForm action={deleteAlertRuleAction.bind(null, revisionId, r.id)} submitLabel="Delete" danger confirm={{ title: 'Delete this alert rule?', body: <p>Its open incidents end; the alert log keeps what it sent.</p> }} label="Delete the rule" />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        {canWrite && channels.length > 0 ? (
          <>
          <h3 className="subsection-title">Add a rule</h3>
          <ActionForm action={addAlertRuleAction.bind(null, revisionId)} submitLabel="Add rule" label="Add an alert rule">
            <div className="field">
              <label htmlFor="rule-schedule">Applies to</label>
              <select id="rule-schedule" name="schedule_id" defaultValue="">
                <option value="">All schedules</option>
                {schedules.schedules.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.alias ?? s.id}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="subfieldset" style={{ flexBasis: '100%' }}>
              <legend>Events</legend>
              {ALERT_EVENTS.map((e) => (
                <div key={e} className="field-checkbox">
                  <input id={`rule-event-${e}`} type="checkbox" name="events" value={e} defaultChecked={e === 'failure' || e === 'recovered'} />
                  <label htmlFor={`rule-event-${e}`}>{EVENT_WORDS[e]}</label>
                </div>
              ))}
            </fieldset>
            <fieldset className="subfieldset" style={{ flexBasis: '100%' }}>
              <legend>Channels</legend>
              {channels.map((c) => (
                <div key={c.id} className="field-checkbox">
                  <input id={`rule-channel-${c.id}`} type="checkbox" name="channels" value={c.id} />
                  <label htmlFor={`rule-channel-${c.id}`}>
                    {c.name} ({c.type})
                  </label>
                </div>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="rule-tolerance">Failure tolerance</label>
              <input id="rule-tolerance" name="failure_tolerance" type="number" min={1} max={1000} defaultValue={1} aria-describedby="rule-tolerance-hint" />
              <p id="rule-tolerance-hint" className="small muted">Alert on the n-th failed occurrence in a row.</p>
            </div>
            <div className="field">
              <label htmlFor="rule-silence">Silence after (seconds)</label>
              <input id="rule-silence" name="silence_seconds" type="number" min={60} max={31536000} aria-describedby="rule-silence-hint" />
              <p id="rule-silence-hint" className="small muted">Needed for the silence event; a disabled schedule is never silent.</p>
            </div>
            <div className="field">
              <label htmlFor="rule-realert">Re-alert every (seconds)</label>
              <input id="rule-realert" name="realert_interval_seconds" type="number" min={60} max={604800} aria-describedby="rule-realert-hint" />
              <p id="rule-realert-hint" className="small muted">Empty: each event alerts once per incident.</p>
            </div>
          </ActionForm>
          </>
        ) : null}
      </section>

      <section className="container container-flush section-gap" aria-labelledby="alert-log-title">
        <h2 id="alert-log-title" className="container-title container-title-padded">
          Alert log
        </h2>
        {!page ? (
          <div className="empty-inline">
            <p>That page of the alert log no longer exists.</p>
            <Link href={selfHref} className="btn">
              First page
            </Link>
          </div>
        ) : page.alerts.length === 0 ? (
          <div className="empty-inline" data-testid="alert-log-empty">
            <p>{cursor ? 'No older alerts.' : 'No alerts sent yet.'}</p>
            <p className="muted small">Every notification a rule raises is listed here with what its channel answered.</p>
          </div>
        ) : (
          <DataTable label="Alert log" columns={LOG_COLUMNS} compact>
            {page.alerts.map((a) => (
              <tr key={a.id} data-testid="alert-log-row">
                <td>
                  <LocalTime instant={a.created_at} />
                </td>
                <td>{names.has(a.schedule_id) ? <Link href={`${base}/schedules/${a.schedule_id}`}>{a.schedule_name}</Link> : a.schedule_name}</td>
                <td>
                  {a.event}
                  {a.round > 0 ? <span className="muted small"> (reminder {a.round})</span> : null}
                </td>
                <td>{a.channel?.name ?? <span className="muted">deleted</span>}</td>
                <td>
                  <span className={STATUS_BADGE[a.status]}>{a.status}</span>
                  {a.sends > 1 ? <span className="muted small"> {a.sends} sends</span> : null}
                </td>
                <td className="small">{a.answer?.message ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {page ? <CursorPager label="Alert log pages" pageSize={ALERTS_PAGE_SIZE} cursor={cursor} back={back} next={page.last_alert_id} href={pageHref} /> : null}
      </section>
    </div>
  );
}
