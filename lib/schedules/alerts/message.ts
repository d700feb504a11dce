/**
 * What an alert says (SPEC §17): the schedule (with a link under SCHEDULER_PUBLIC_URL), the scheduler,
 * the event, the occurrence time in the schedule's zone and in UTC, the error or outcome, the attempts
 * and the consecutive failures. One set of facts, four renderings: plain text and HTML (the two parts
 * of a mail), Slack's `{text, blocks}`, and the webhook's JSON. Pure.
 */
import { DateTime } from 'luxon';
import type { AlertEvent } from './contract';

/** The facts an alert row keeps (`alerts.facts`), written when it is raised. */
export interface AlertFacts {
  schedule: { id: string; name: string; alias?: string; description?: string; timezone: string };
  scheduler: { id: string; name: string; revision_id: string };
  /** The occurrence it reports (ISO UTC), when one. */
  scheduled_for?: string;
  status?: string;
  error?: string;
  message?: string;
  outcome?: string;
  attempts?: number;
  consecutive_failures?: number;
  failure_tolerance?: number;
  skipped?: number;
  reason?: string;
  note?: string;
  silence_seconds?: number;
  /** The last successful occurrence's record (ISO UTC), for `silence`. */
  last_success_at?: string;
  /** A re-alert round's count at its raising; the other facts are the first alert's (decision 273). */
  consecutive_failures_now?: number;
}

const HEADLINES: Record<AlertEvent, string> = {
  failure: 'is failing',
  dead_letter: 'sent an occurrence to its dead letters',
  missed: 'missed occurrences',
  silence: 'has gone silent',
  paused: 'was paused by the worker',
  recovered: 'recovered',
};

/** The link to the schedule's page under `publicUrl` (SCHEDULER_PUBLIC_URL, no trailing slash). */
export function scheduleLink(publicUrl: string, f: AlertFacts): string {
  return `${publicUrl}/schedulers/${encodeURIComponent(f.scheduler.revision_id)}/schedules/${encodeURIComponent(f.schedule.id)}`;
}

/** An instant in `zone` and in UTC: `2026-03-08 03:30:00 America/New_York (2026-03-08 07:30:00 UTC)`. */
export function zonedAndUtc(iso: string, zone: string): string {
  const t = DateTime.fromISO(iso, { zone: 'utc' });
  const utc = `${t.toFormat('yyyy-LL-dd HH:mm:ss')} UTC`;
  if (zone === 'UTC' || zone === 'Etc/UTC') return utc;
  const local = t.setZone(zone);
  return local.isValid ? `${local.toFormat('yyyy-LL-dd HH:mm:ss')} ${zone} (${utc})` : utc;
}

/** The message's title: `[scheduler] schedule is failing`. */
export function alertTitle(event: AlertEvent, f: AlertFacts, test = false): string {
  return `${test ? 'Test: ' : ''}[${f.scheduler.name}] ${f.schedule.name} ${HEADLINES[event]}`;
}

/** The message's lines as label/value pairs, in order (absent facts left out). */
export function alertLines(event: AlertEvent, f: AlertFacts): [string, string][] {
  const lines: [string, string][] = [
    ['Schedule', f.schedule.name + (f.schedule.description ? ` (${f.schedule.description})` : '')],
    ['Scheduler', f.scheduler.name],
    ['Event', event],
  ];
  // A reminder (its facts the first alert's, decision 273) says which lines are the first alert's.
  const reminder = f.consecutive_failures_now !== undefined;
  if (f.scheduled_for) lines.push([reminder ? 'First alerted occurrence' : 'Occurrence', zonedAndUtc(f.scheduled_for, f.schedule.timezone)]);
  const error = [f.error, f.message].filter(Boolean).join(': ');
  if (error) lines.push(['Error', error]);
  else if (f.status && f.status !== 'success') lines.push(['Status', f.status]);
  if (f.outcome) lines.push(['Outcome', f.outcome]);
  if (f.attempts !== undefined) lines.push(['Attempts', String(f.attempts)]);
  if (f.consecutive_failures !== undefined) lines.push([reminder ? 'Consecutive failures then' : 'Consecutive failures', String(f.consecutive_failures) + (f.failure_tolerance && f.failure_tolerance > 1 ? ` (tolerance ${f.failure_tolerance})` : '')]);
  if (reminder) lines.push(['Consecutive failures now', String(f.consecutive_failures_now)]);
  if (f.skipped !== undefined) lines.push(['Missed occurrences', `${f.skipped}${f.reason === 'overlap' ? ' (overlap policy: a run was in progress)' : ' (later than the catch-up window)'}`]);
  if (f.silence_seconds !== undefined) lines.push(['Silent for', `no successful occurrence for ${f.silence_seconds} s or more` + (f.last_success_at ? `; the last at ${zonedAndUtc(f.last_success_at, f.schedule.timezone)}` : '; none yet')]);
  if (f.note) lines.push(['Note', f.note]);
  return lines;
}

export interface RenderedAlert {
  title: string;
  text: string;
  html: string;
  slack: { text: string; blocks: unknown[] };
  json: Record<string, unknown>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Slack mrkdwn: `&`, `<`, `>` are the only characters it needs escaped. */
const escapeSlack = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/**
 * Every rendering of one alert. `id` is the alert's id (the webhook's `webhook-id`, the mail's
 * Message-ID), `round` its re-alert round (0 first), `test` a Send test's sample.
 */
export function renderAlert(opts: { id: string; incidentId?: string; event: AlertEvent; round: number; facts: AlertFacts; publicUrl: string; at: Date; test?: boolean }): RenderedAlert {
  const { event, facts: f } = opts;
  const title = alertTitle(event, f, opts.test) + (opts.round > 0 ? ` (reminder ${opts.round})` : '');
  const link = scheduleLink(opts.publicUrl, f);
  const lines = alertLines(event, f);
  const text = [title, '', ...lines.map(([k, v]) => `${k}: ${v}`), '', `Open the schedule: ${link}`, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2 style="margin:0 0 12px">${escapeHtml(title)}</h2>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...lines.map(([k, v]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    `<p><a href="${escapeHtml(link)}">Open the schedule</a></p>`,
    '</body></html>',
  ].join('\n');
  const slackText = `${escapeSlack(title)}: <${link}|${escapeSlack(f.schedule.name)}>`;
  const slack = {
    text: slackText,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', fields: lines.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${escapeSlack(k)}*\n${escapeSlack(v).slice(0, 1900)}` })) },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the schedule' }, url: link }] },
    ],
  };
  const json = {
    type: 'scheduler.alert',
    id: opts.id,
    ...(opts.incidentId ? { incident_id: opts.incidentId } : {}),
    event,
    round: opts.round,
    test: opts.test === true,
    title,
    schedule: { ...f.schedule, url: link },
    scheduler: f.scheduler,
    ...(f.scheduled_for ? { occurrence: { scheduled_for: f.scheduled_for, local: zonedAndUtc(f.scheduled_for, f.schedule.timezone) } } : {}),
    details: Object.fromEntries(Object.entries(f).filter(([k]) => !['schedule', 'scheduler', 'scheduled_for'].includes(k))),
    sent_at: opts.at.toISOString(),
  };
  return { title, text, html, slack, json };
}
