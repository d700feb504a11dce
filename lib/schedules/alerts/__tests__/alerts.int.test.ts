/**
 * SPEC §17 against real peers: a real HTTP receiver (webhook and Slack channels; the webhook's
 * Standard Webhooks signature verified with the channel's own secret) and a real SMTP server
 * (`smtp-server`: the login with the sealed password, the plain text and HTML parts). Rules run
 * through the real fire engine on a real database (SQLite or PostgreSQL, TEST_DATABASE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Actor } from '../../../auth';
import type { HttpAllowList } from '../../../config';
import type { Db } from '../../../db';
import { createTestDb } from '../../../testing/test-db';
import { startReceiver, type Receiver } from '../../../testing/receiver';
import { startSmtpSink, type SmtpSink } from '../../../testing/smtp-sink';
import { TEST_LIMITS } from '../../../testing/limits';
import { closeSession, createDefinition, createSchedulerBlob, createSession, deleteBlob, reopenSession } from '../../../workflows';
import { createDeliveryPool } from '../../../targets';
import { seed } from '../../../../prisma/seed';
import { EVENTBRIDGE_SAVE_RULES, healthReport } from '../../../api';
import {
  anyAlertChannelFailing,
  checkSilence,
  createAlertChannel,
  createAlertRule,
  createSchedule,
  deleteAlertRule,
  deleteSchedule,
  updateAlertRule,
  endAlertingOfDeletedSchedules,
  failingAlertChannels,
  fireOccurrence,
  getAlertChannel,
  listAlertChannels,
  listAlerts,
  realertIncidents,
  recordHeartbeat,
  sendDueAlerts,
  sweepAlerts,
  testAlertChannel,
  updateAlertChannel,
  updateSchedule,
  type AlertDeliveryDeps,
} from '../..';

const ALLOW: HttpAllowList = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8'] };
const PUBLIC_URL = 'https://scheduler.example.com';

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;
let admin: Actor;
let scheduler: { id: string; blobId: string };
let receiver: Receiver;
let smtp: SmtpSink;
let deps: AlertDeliveryDeps;
let wfRevision: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined);
  admin = { type: 'user', id: ctx.userId, roleCap: null };
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  scheduler = { id: rev.id, blobId: rev.blobId };
  receiver = await startReceiver((req) => (req.path.startsWith('/fail') ? { status: 500, body: 'receiver down' } : { status: 200, body: 'ok' }));
  smtp = await startSmtpSink({ user: 'alerts', password: 's3cret-pass', reject: ['nobody@example.com'] });
  deps = { pool: createDeliveryPool(8), allowList: ALLOW, publicUrl: PUBLIC_URL };
  const blob = await db.blob.create({ data: { orgId: ctx.orgId, alias: 'alerted-work', type: 'workflow', name: 'alerted-work' } });
  const revision = await db.revision.create({ data: { blobId: blob.id, state: 'draft' } });
  await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: revision.id } });
  wfRevision = revision.id;
  await createDefinition(db, { actor: admin, revisionId: revision.id, alias: 'work-def', name: 'Work' });
});
afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
  await cleanup();
});

const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

/** A schedule firing every minute into its own session `session` (closed: each fire fails). */
async function failingSchedule(alias: string, extra: Record<string, unknown> = {}, revision: { id: string; blobId: string } = scheduler) {
  await createSession(db, { actor: admin, revisionId: wfRevision, alias: `${alias}-s` });
  const made = await createSchedule({
    db, actor: admin, revision, limits: TEST_LIMITS, now: new Date(),
    input: {
      alias, repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'Europe/Paris', description: `${alias} job`,
      invocation_target: { target: { org: 'acme-corp', blob: 'alerted-work', revision: 'default', session: `${alias}-s` }, workflow: { definition: 'work-def' } },
      ...extra,
    },
  });
  // Closed after the save (a save checks the session is open, SPEC §6.3): each fire fails `session_not_open`.
  await closeSession(db, { actor: admin, revisionId: wfRevision, session: `${alias}-s` });
  return made;
}

/** Fire the schedule's due occurrence as the worker would; answers the fire's instant. */
async function fireNext(scheduleId: string): Promise<Date> {
  const row = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  const now = new Date(row.nextFireAt!.getTime() + 200);
  const out = await fireOccurrence({ db, scheduleId, scheduledFor: row.nextFireAt!, now, limits: TEST_LIMITS });
  expect(out.kind).toBe('fired');
  return now;
}

async function channel(type: 'webhook' | 'slack' | 'email', name: string, config: Record<string, unknown>) {
  return createAlertChannel(db, { actor: admin, org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type, name, config } });
}

describe('§17 channels', () => {
  it('webhook: its own signing secret shown once; Send test is signed with it and reports the answer', async () => {
    const made = await channel('webhook', 'ops-hook', { url: receiver.url('/hook/test') });
    expect(made.signing_secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await getAlertChannel(db, { actor: admin, org: 'acme-corp', channel: made.channel.id }))).not.toContain('whsec_');
    const answer = await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-hook', now: new Date(), delivery: deps });
    expect(answer).toEqual({ ok: true, status: 200, message: 'HTTP 200: ok' });
    const [req] = requestsTo('/hook/test');
    const body = new Webhook(made.signing_secret!).verify(req.body, req.headers) as { event: string; test: boolean; title: string };
    expect(body).toMatchObject({ type: 'scheduler.alert', event: 'failure', test: true });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(req.body, req.headers)).toThrow();
    // A rotation shows the new secret once; the next send is signed with it.
    const rotated = await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: made.channel.id, now: new Date(), allowList: ALLOW, input: { rotate_secret: true } });
    await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-hook', now: new Date(), delivery: deps });
    expect(new Webhook(rotated.signing_secret!).verify(requestsTo('/hook/test')[1].body, requestsTo('/hook/test')[1].headers)).toBeTruthy();
  });

  it('slack: the URL is write-only; the body is {text, blocks} naming the schedule with a link', async () => {
    const made = await channel('slack', 'ops-slack', { url: receiver.url('/slack/T000/B000/XXXX') });
    expect(made.channel.config).toEqual({ url: `${new URL(receiver.url('/')).origin}/••••` });
    // An edit sending the mask keeps the stored URL.
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-slack', now: new Date(), allowList: ALLOW, input: { config: made.channel.config } });
    expect((await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-slack', now: new Date(), delivery: deps })).ok).toBe(true);
    const body = JSON.parse(requestsTo('/slack/T000/B000/XXXX')[0].body) as { text: string; blocks: { type: string }[] };
    expect(body.text).toContain('example-schedule');
    expect(body.text).toContain(`<${PUBLIC_URL}/schedulers/`);
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
  });

  it('email: SMTP login with the sealed password; plain text and HTML parts; the password never answered', async () => {
    const made = await channel('email', 'ops-mail', { host: '127.0.0.1', port: smtp.port, tls: 'none', user: 'alerts', password: 's3cret-pass', from: 'scheduler@example.com', to: ['oncall@example.com'] });
    expect(made.channel.config.password).toBe('••••');
    const row = await db.alertChannel.findUniqueOrThrow({ where: { id: made.channel.id } });
    expect(JSON.stringify(row)).not.toContain('s3cret-pass');
    const answer = await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-mail', now: new Date(), delivery: deps });
    expect(answer).toMatchObject({ ok: true, status: 250 });
    const mail = smtp.mails.at(-1)!;
    expect(mail).toMatchObject({ user: 'alerts', from: 'scheduler@example.com', to: ['oncall@example.com'] });
    expect(mail.headers.subject).toContain('example-schedule');
    expect(mail.parts['text/plain']).toContain('Consecutive failures: 3');
    expect(mail.parts['text/html']).toContain('<a href="https://scheduler.example.com/schedulers/');
    // A wrong password is what the server answered.
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-mail', now: new Date(), allowList: ALLOW, input: { config: { ...made.channel.config, password: 'wrong' } } });
    const refused = await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-mail', now: new Date(), delivery: deps });
    expect(refused).toMatchObject({ ok: false, status: 535 });
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-mail', now: new Date(), allowList: ALLOW, input: { config: { ...made.channel.config, password: 's3cret-pass' } } });
    expect(await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'ops-mail', now: new Date(), delivery: deps })).toMatchObject({ ok: true });
    expect(smtp.mails).toHaveLength(2);
  });

  it('a destination outside the allowed hosts is refused at save (SPEC §13.1)', async () => {
    await expect(createAlertChannel(db, { actor: admin, org: 'acme-corp', now: new Date(), allowList: { hosts: [], addresses: [], ranges: [] }, input: { type: 'webhook', name: 'private', config: { url: 'http://127.0.0.1:9/x' } } })).rejects.toMatchObject({
      code: 'invalid_request_body',
      path: 'config.url',
    });
  });

  it('a name with the shape of an id is refused; a masked Slack URL keeps the stored one only as answered; a password in a webhook URL is masked (decision 342)', async () => {
    const idShaped = '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e';
    await expect(channel('webhook', idShaped, { url: receiver.url('/hook/id-named') })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'name' });
    const made = await channel('webhook', 'renamable-hook', { url: receiver.url('/hook/renamable') });
    await expect(updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: made.channel.id, now: new Date(), allowList: ALLOW, input: { name: made.channel.id.toUpperCase() } })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'name' });

    const slack = await channel('slack', 'origin-slack', { url: receiver.url('/slack/T1/B1/origin-secret') });
    const answered = String(slack.channel.config.url);
    expect(answered).toBe(`${new URL(receiver.url('/')).origin}/••••`);
    // Another origin with the mask: refused, not silently ignored.
    await expect(updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'origin-slack', now: new Date(), allowList: ALLOW, input: { config: { url: 'http://localhost:9/••••' } } })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'config.url' });
    // As answered: kept.
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'origin-slack', now: new Date(), allowList: ALLOW, input: { config: { url: answered } } });
    expect(await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'origin-slack', now: new Date(), delivery: deps })).toMatchObject({ ok: true });
    expect(receiver.requests.at(-1)!.path).toBe('/slack/T1/B1/origin-secret');

    const withPassword = receiver.url('/hook/basic').replace('http://', 'http://ops:hunter2-secret@');
    const basic = await channel('webhook', 'basic-hook', { url: withPassword });
    expect(basic.channel.config.url).toBe(withPassword.replace('hunter2-secret', '••••'));
    expect(JSON.stringify(await listAlertChannels(db, { actor: admin, org: 'acme-corp' }))).not.toContain('hunter2-secret');
    // The URL sent back as answered keeps the stored one; a new URL replaces it.
    const kept = await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'basic-hook', now: new Date(), allowList: ALLOW, input: { name: 'basic-hook-2', config: { url: String(basic.channel.config.url) } } });
    expect(kept.channel.config.url).toBe(basic.channel.config.url);
    expect((await db.alertChannel.findUniqueOrThrow({ where: { id: basic.channel.id } })).config).toEqual({ url: withPassword });
    // Another path with the masked password: the stored password is kept, not replaced by the mask.
    const moved = String(basic.channel.config.url).replace('/hook/basic', '/hook/basic-moved');
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'basic-hook-2', now: new Date(), allowList: ALLOW, input: { config: { url: moved } } });
    expect((await db.alertChannel.findUniqueOrThrow({ where: { id: basic.channel.id } })).config).toEqual({ url: withPassword.replace('/hook/basic', '/hook/basic-moved') });
    expect(await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'basic-hook-2', now: new Date(), delivery: deps })).toMatchObject({ ok: true });
    expect(receiver.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('ops:hunter2-secret').toString('base64')}`);
    // The mask for another user or origin has no password to keep: refused, nothing changed.
    for (const url of [moved.replace('ops:', 'dev:'), moved.replace('127.0.0.1', 'localhost')]) {
      await expect(updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'basic-hook-2', now: new Date(), allowList: ALLOW, input: { config: { url } } })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'config.url' });
    }
    expect((await db.alertChannel.findUniqueOrThrow({ where: { id: basic.channel.id } })).config).toEqual({ url: withPassword.replace('/hook/basic', '/hook/basic-moved') });
  });

  it('only admins manage channels', async () => {
    const writer: Actor = { type: 'user', id: ctx.userId, roleCap: 'read' };
    await expect(createAlertChannel(db, { actor: writer, org: 'acme-corp', now: new Date(), allowList: ALLOW, input: { type: 'webhook', name: 'x', config: { url: receiver.url('/x') } } })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await listAlertChannels(db, { actor: admin, org: 'acme-corp' })).map((c) => c.name)).toContain('ops-hook');
  });
});

describe('§17 rules and incidents', () => {
  it('failure_tolerance 3 alerts once on the third failure, recovered after the next success; messages name everything', async () => {
    const hook = await channel('webhook', 'tolerance-hook', { url: receiver.url('/hook/tolerance') });
    const s = await failingSchedule('tolerant-job');
    await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: 'tolerant-job', events: ['failure', 'recovered'], channels: [hook.channel.id], failure_tolerance: 3 } });
    for (let i = 1; i <= 5; i++) {
      const now = await fireNext(s.id);
      await sendDueAlerts(db, deps, now);
      expect(requestsTo('/hook/tolerance').length, `after failure ${i}`).toBe(i >= 3 ? 1 : 0);
    }
    const failure = JSON.parse(requestsTo('/hook/tolerance')[0].body) as { event: string; title: string; schedule: { name: string; url: string }; occurrence: { local: string }; details: Record<string, unknown> };
    expect(failure.event).toBe('failure');
    expect(failure.schedule).toMatchObject({ name: 'tolerant-job', url: `${PUBLIC_URL}/schedulers/${scheduler.id}/schedules/${s.id}` });
    expect(failure.occurrence.local).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:00 Europe\/Paris \(\d{4}-\d\d-\d\d \d\d:\d\d:00 UTC\)$/);
    expect(failure.details).toMatchObject({ error: 'session_not_open', attempts: 1, consecutive_failures: 3, status: 'invocation_error' });
    await reopenSession(db, { actor: admin, revisionId: wfRevision, session: 'tolerant-job-s' });
    const now = await fireNext(s.id);
    await sendDueAlerts(db, deps, now);
    expect(requestsTo('/hook/tolerance').map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual(['failure', 'recovered']);
    // A second success says nothing more.
    await sendDueAlerts(db, deps, await fireNext(s.id));
    expect(requestsTo('/hook/tolerance')).toHaveLength(2);
    const log = await listAlerts({ db, actor: admin, revision: scheduler });
    const mine = log.alerts.filter((a) => a.schedule_id === s.id);
    expect(mine.map((a) => [a.event, a.status, a.answer?.status])).toEqual([['recovered', 'sent', 200], ['failure', 'sent', 200]]);
    expect(mine[0].incident_id).toBe(mine[1].incident_id);
  });

  it('realert_interval_seconds 120 alerts again every 120 s while the schedule keeps failing', async () => {
    const hook = await channel('webhook', 'realert-hook', { url: receiver.url('/hook/realert') });
    const s = await failingSchedule('realert-job');
    await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: s.id, events: ['failure'], channels: [hook.channel.id], realert_interval_seconds: 120 } });
    const t0 = await fireNext(s.id);
    await sendDueAlerts(db, deps, t0);
    // A second failure: the reminders say the count now beside the first alert's facts.
    await fireNext(s.id);
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    for (const [sec, expected] of [[60, 1], [119, 1], [120, 2], [180, 2], [240, 3]] as const) {
      await realertIncidents(db, at(sec));
      await sendDueAlerts(db, deps, at(sec));
      expect(requestsTo('/hook/realert').length, `at +${sec} s`).toBe(expected);
    }
    const bodies = requestsTo('/hook/realert').map((r) => JSON.parse(r.body) as { round: number; occurrence: { scheduled_for: string }; details: Record<string, unknown> });
    expect(bodies.map((b) => b.round)).toEqual([0, 1, 2]);
    // Decision 273: each reminder carries the first alert's occurrence and count, and the count now.
    expect(bodies.map((b) => [b.occurrence.scheduled_for, b.details.consecutive_failures, b.details.consecutive_failures_now])).toEqual([
      [bodies[0].occurrence.scheduled_for, 1, undefined],
      [bodies[0].occurrence.scheduled_for, 1, 2],
      [bodies[0].occurrence.scheduled_for, 1, 2],
    ]);
  });

  it('silence: an enabled schedule silent for silence_seconds alerts once; a disabled one never', async () => {
    const hook = await channel('webhook', 'silence-hook', { url: receiver.url('/hook/silence') });
    const on = await failingSchedule('silent-on');
    const off = await failingSchedule('silent-off');
    await updateSchedule({ db, actor: admin, revision: scheduler, scheduleRef: off.id, input: { enabled: false }, limits: TEST_LIMITS, now: new Date() });
    await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { events: ['silence'], channels: [hook.channel.id], silence_seconds: 600 } });
    const later = (s: number) => new Date(Date.now() + s * 1000);
    expect(await checkSilence(db, later(300))).toBe(0);
    expect(await checkSilence(db, later(700))).toBeGreaterThanOrEqual(1);
    expect(await checkSilence(db, later(800))).toBe(0);
    await sendDueAlerts(db, deps, later(700));
    const silent = requestsTo('/hook/silence').map((r) => JSON.parse(r.body) as { event: string; schedule: { id: string } });
    expect(silent.every((b) => b.event === 'silence')).toBe(true);
    expect(silent.map((b) => b.schedule.id)).toContain(on.id);
    expect(silent.map((b) => b.schedule.id)).not.toContain(off.id);
  });

  it('dead_letter, missed and paused are raised in the transactions that record them', async () => {
    const hook = await channel('webhook', 'events-hook', { url: receiver.url('/hook/events') });
    const s = await failingSchedule('eventful-job', { retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 }, pause_after_failures: 2 });
    await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: s.id, events: ['dead_letter', 'missed', 'paused'], channels: [hook.channel.id] } });
    // Missed: fire 20 minutes late, beyond the 300 s catch-up window.
    const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    const late = new Date(row.nextFireAt!.getTime() + 20 * 60_000 + 200);
    expect((await fireOccurrence({ db, scheduleId: s.id, scheduledFor: row.nextFireAt!, now: late, limits: TEST_LIMITS })).kind).toBe('skipped');
    await fireNext(s.id);
    await fireNext(s.id);
    await sendDueAlerts(db, deps, new Date(late.getTime() + 60_000));
    const events = requestsTo('/hook/events').map((r) => JSON.parse(r.body) as { event: string; details: Record<string, unknown> });
    expect(events.map((e) => e.event).sort()).toEqual(['dead_letter', 'missed', 'paused']);
    expect(events.find((e) => e.event === 'missed')!.details).toMatchObject({ reason: 'catch_up_window' });
    expect((events.find((e) => e.event === 'missed')!.details.skipped as number) >= 15).toBe(true);
    expect(String(events.find((e) => e.event === 'paused')!.details.note)).toContain('pause_after_failures = 2');
    // The consecutive failures after the occurrence each reports, its own failure included (as `failure` says).
    expect(events.find((e) => e.event === 'dead_letter')!.details.consecutive_failures).toBe(1);
    expect(events.find((e) => e.event === 'paused')!.details.consecutive_failures).toBe(2);
  });

  it('missed: an EventBridge at() saved already beyond the catch-up window alerts with the save (SPEC §14, §17)', async () => {
    const hook = await channel('webhook', 'past-at-hook', { url: receiver.url('/hook/past-at') });
    const rule = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { events: ['missed'], channels: [hook.channel.id] } });
    try {
      await createSession(db, { actor: admin, revisionId: wfRevision, alias: 'past-at-s' });
      const now = new Date();
      const past = new Date(Math.floor(now.getTime() / 1000) * 1000 - 2 * 3_600_000);
      const s = await createSchedule({
        db, actor: admin, revision: scheduler, limits: TEST_LIMITS, now, rules: EVENTBRIDGE_SAVE_RULES,
        input: { alias: 'past-at-job', repeat: 'one_time', invocation_time: past.toISOString().slice(0, 19), timezone: 'UTC', invocation_target: { target: { org: 'acme-corp', blob: 'alerted-work', revision: 'default', session: 'past-at-s' }, workflow: { definition: 'work-def' } } },
      });
      expect(s).toMatchObject({ state: 'completed', skipped_occurrences: 1 });
      await sendDueAlerts(db, deps, now);
      const got = requestsTo('/hook/past-at').map((r) => JSON.parse(r.body) as { event: string; details: Record<string, unknown>; occurrence: { scheduled_for: string } });
      expect(got.map((g) => g.event)).toEqual(['missed']);
      expect(got[0].details).toMatchObject({ skipped: 1, reason: 'catch_up_window' });
      expect(got[0].occurrence.scheduled_for).toBe(past.toISOString());
    } finally {
      await deleteAlertRule({ db, actor: admin, revision: scheduler, ruleRef: rule.id });
    }
  });

  it('a deleted schedule takes its rules and open incidents with it, in its transaction; one the fire path deleted goes at the minute check (decision 344)', async () => {
    const hook = await channel('webhook', 'deleted-hook', { url: receiver.url('/hook/deleted') });
    const s = await failingSchedule('deleted-job');
    const rule = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: s.id, events: ['failure'], channels: [hook.channel.id] } });
    await fireNext(s.id);
    expect(await db.alertIncident.count({ where: { ruleId: rule.id, openKey: { not: null } } })).toBe(1);
    const now = new Date();
    await deleteSchedule({ db, actor: admin, revision: scheduler, scheduleRef: s.id, now });
    expect(await db.alertRule.count({ where: { id: rule.id } })).toBe(0);
    expect(await db.alertIncident.findMany({ where: { ruleId: rule.id }, select: { openKey: true, resolvedAt: true } })).toEqual([{ openKey: null, resolvedAt: now }]);
    expect(await db.alert.count({ where: { ruleId: rule.id } })).toBe(1); // the log stays

    // Deleted by the fire path (action_after_completion "delete", a plain row delete there): the minute check.
    const t = await failingSchedule('completed-job');
    const other = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: t.id, events: ['failure'], channels: [hook.channel.id] } });
    await db.schedule.delete({ where: { id: t.id } });
    expect(await endAlertingOfDeletedSchedules(db, new Date())).toBe(1);
    expect(await db.alertRule.count({ where: { id: other.id } })).toBe(0);
    expect(await endAlertingOfDeletedSchedules(db, new Date())).toBe(0);
  });

  it("a deleted scheduler's open incidents end in its delete's transaction (no foreign key reaches them); another scheduler's stay open", async () => {
    const hook = await channel('webhook', 'gone-scheduler-hook', { url: receiver.url('/hook/gone-scheduler') });
    const made = await createSchedulerBlob(db, { actor: admin, org: 'acme-corp', alias: 'doomed-alerts', name: 'Doomed alerts' });
    const doomed = { id: made.default_revision_id!, blobId: made.id };
    const s = await failingSchedule('doomed-job', {}, doomed);
    const rule = await createAlertRule({ db, actor: admin, revision: doomed, now: new Date(), input: { events: ['failure'], channels: [hook.channel.id] } });
    const kept = await failingSchedule('kept-job');
    const keptRule = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: kept.id, events: ['failure'], channels: [hook.channel.id] } });
    try {
      await fireNext(s.id);
      await fireNext(kept.id);
      expect(await db.alertIncident.count({ where: { ruleId: { in: [rule.id, keptRule.id] }, openKey: { not: null } } })).toBe(2);

      const now = new Date(Date.now() + 1234);
      await deleteBlob(db, { actor: admin, blobId: doomed.blobId, now });
      expect(await db.alertRule.count({ where: { id: rule.id } })).toBe(0);
      expect(await db.alertIncident.findMany({ where: { ruleId: rule.id }, select: { scheduleId: true, openKey: true, resolvedAt: true } })).toEqual([{ scheduleId: s.id, openKey: null, resolvedAt: now }]);
      // Ended as the retention sweep reads them (resolved before its cutoff).
      expect(await db.alertIncident.count({ where: { ruleId: rule.id, openKey: null, resolvedAt: { lt: new Date(now.getTime() + 1) } } })).toBe(1);
      expect(await db.alertIncident.findMany({ where: { ruleId: keptRule.id }, select: { openKey: true, resolvedAt: true } })).toEqual([{ openKey: `${keptRule.id}:${kept.id}`, resolvedAt: null }]);
    } finally {
      await deleteSchedule({ db, actor: admin, revision: scheduler, scheduleRef: kept.id, now: new Date() });
    }
  });

  it('overlapping rules naming one channel send it one alert per event and round; an identical rule is refused (409 duplicate_alert_rule, decision 345)', async () => {
    const hook = await channel('webhook', 'ck-hook', { url: receiver.url('/hook/ck') });
    const s = await failingSchedule('ck-job1');
    const rules: string[] = [];
    try {
      const input = { events: ['failure', 'recovered'] as ('failure' | 'recovered')[], channels: ['ck-hook'], realert_interval_seconds: 60 };
      rules.push((await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { ...input, schedule_id: 'ck-job1' } })).id);
      const wide = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input });
      rules.push(wide.id);
      // The same rule again (channel by id, events in another order): refused, nothing written.
      const count = await db.alertRule.count();
      await expect(createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { ...input, events: ['recovered', 'failure'], channels: [hook.channel.id] } })).rejects.toMatchObject({ code: 'duplicate_alert_rule', status: 409 });
      await expect(createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { ...input, dry_run: true } })).rejects.toMatchObject({ code: 'duplicate_alert_rule' });
      expect(await db.alertRule.count()).toBe(count);
      // Nor does an update make a rule identical to another; a rule differing in a setting is another rule.
      const other = await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { ...input, realert_interval_seconds: 120 } });
      rules.push(other.id);
      await expect(updateAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { rule_id: other.id, realert_interval_seconds: 60 } })).rejects.toMatchObject({ code: 'duplicate_alert_rule' });
      expect((await db.alertRule.findUniqueOrThrow({ where: { id: other.id } })).realertIntervalSeconds).toBe(120);
      await deleteAlertRule({ db, actor: admin, revision: scheduler, ruleRef: other.id });
      rules.pop();
      // An identical pair made before the refusal existed (as QA had it): the third rule, copied row for row.
      const copy = await db.alertRule.create({
        data: { id: '0193a7f0-0000-7000-8000-00000000c0de', revisionId: scheduler.id, scheduleId: null, events: 'failure,recovered', failureTolerance: 1, realertIntervalSeconds: 60, enabled: true, createdAt: new Date(), updatedAt: new Date(), channels: { create: [{ channelId: hook.channel.id }] } },
      });
      rules.push(copy.id);

      const t0 = await fireNext(s.id);
      await sendDueAlerts(db, deps, t0);
      const events = () => requestsTo('/hook/ck').map((r) => JSON.parse(r.body) as { event: string; round: number; schedule: { name: string } });
      expect(events().map((e) => [e.event, e.round, e.schedule.name])).toEqual([['failure', 0, 'ck-job1']]);
      // Every rule still has its incident (each recovers), but one carries the alert: the oldest rule's.
      const incidents = await db.alertIncident.findMany({ where: { scheduleId: s.id, openKey: { not: null } }, select: { ruleId: true } });
      expect(incidents.map((i) => i.ruleId).sort()).toEqual([...rules].sort());
      expect((await db.alert.findMany({ where: { scheduleId: s.id }, select: { ruleId: true } })).map((a) => a.ruleId)).toEqual([rules[0]]);
      // Re-alert rounds: one per round for the channel, across the three incidents; none a minute later from another.
      const at = (sec: number) => new Date(t0.getTime() + sec * 1000);
      for (const [sec, expected] of [[30, 1], [60, 2], [90, 2], [120, 3], [150, 3]] as const) {
        await realertIncidents(db, at(sec));
        await sendDueAlerts(db, deps, at(sec));
        expect(events().length, `at +${sec} s`).toBe(expected);
        expect(await db.alert.count({ where: { scheduleId: s.id } }), `alert rows at +${sec} s`).toBe(expected);
      }
      // Each reminder names the schedule and the first alert's occurrence.
      const bodies = requestsTo('/hook/ck').map((r) => JSON.parse(r.body) as { event: string; round: number; schedule: { id: string }; occurrence: { scheduled_for: string } });
      expect(bodies.map((b) => [b.event, b.round, b.schedule.id, b.occurrence.scheduled_for])).toEqual([0, 1, 2].map((round) => ['failure', round, s.id, bodies[0].occurrence.scheduled_for]));
      // The success: one `recovered`.
      await reopenSession(db, { actor: admin, revisionId: wfRevision, session: 'ck-job1-s' });
      const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
      const now = new Date(Math.max(row.nextFireAt!.getTime(), at(150).getTime()) + 200);
      expect((await fireOccurrence({ db, scheduleId: s.id, scheduledFor: row.nextFireAt!, now, limits: TEST_LIMITS })).kind).toBe('fired');
      await sendDueAlerts(db, deps, now);
      expect(events().map((e) => e.event)).toEqual(['failure', 'failure', 'failure', 'recovered']);
      expect(await db.alert.count({ where: { scheduleId: s.id } })).toBe(4);
      expect(await db.alertIncident.count({ where: { scheduleId: s.id, openKey: { not: null } } })).toBe(0);
    } finally {
      for (const id of rules) await deleteAlertRule({ db, actor: admin, revision: scheduler, ruleRef: id });
    }
  });

  it('a channel answering 500 is retried with back-off, then flagged (scheduler page, health)', async () => {
    const hook = await channel('webhook', 'broken-hook', { url: receiver.url('/fail/hook') });
    const s = await failingSchedule('broken-job');
    await createAlertRule({ db, actor: admin, revision: scheduler, now: new Date(), input: { schedule_id: s.id, events: ['failure'], channels: [hook.channel.id] } });
    const t0 = await fireNext(s.id);
    expect(await failingAlertChannels(db, scheduler.id)).toEqual([]);
    const r1 = await sendDueAlerts(db, deps, t0);
    expect(r1.failures).toMatchObject([{ final: false }]);
    expect(await failingAlertChannels(db, scheduler.id)).toMatchObject([{ name: 'broken-hook' }]);
    expect(await anyAlertChannelFailing(db)).toBe(true);
    // GET /api/health says so, and stays ok (200) while a worker is alive.
    await recordHeartbeat(db, { workerId: 'alerts-test', startedAt: new Date(), intervalMs: 5000, now: new Date() });
    expect(await healthReport(new Date(), db)).toMatchObject({ status: 'ok', alerts: 'failing' });
    // Not due again before 60 s; then tried again (each with the same webhook-id), then 120 s later.
    expect((await sendDueAlerts(db, deps, new Date(t0.getTime() + 59_000))).failed).toBe(0);
    expect((await sendDueAlerts(db, deps, new Date(t0.getTime() + 60_000))).failed).toBe(1);
    expect((await sendDueAlerts(db, deps, new Date(t0.getTime() + 179_000))).failed).toBe(0);
    expect((await sendDueAlerts(db, deps, new Date(t0.getTime() + 180_000))).failed).toBe(1);
    const sent = requestsTo('/fail/hook');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [entry] = (await listAlerts({ db, actor: admin, revision: scheduler })).alerts.filter((a) => a.schedule_id === s.id);
    expect(entry).toMatchObject({ status: 'pending', sends: 3, answer: { status: 500 } });
    // After 24 h it is given up.
    const r = await sendDueAlerts(db, deps, new Date(t0.getTime() + 86_400_000));
    expect(r.failures).toMatchObject([{ final: true }]);
    // The log is swept with the runs: a sent or failed alert older than the cutoff goes, a pending one never.
    const cutoff = new Date(t0.getTime() + 86_400_000 + 1);
    const pending = await db.alert.count({ where: { status: 'pending' } });
    expect(await sweepAlerts(db, cutoff)).toBeGreaterThan(0);
    expect(await db.alert.count({ where: { status: { not: 'pending' }, createdAt: { lt: cutoff } } })).toBe(0);
    expect(await db.alert.count({ where: { status: 'pending' } })).toBe(pending);
    // Fixed: the channel's next good send clears the flag.
    await updateAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'broken-hook', now: new Date(), allowList: ALLOW, input: { config: { url: receiver.url('/hook/fixed') } } });
    await testAlertChannel(db, { actor: admin, org: 'acme-corp', channel: 'broken-hook', now: new Date(), delivery: deps });
    expect(await failingAlertChannels(db, scheduler.id)).toEqual([]);
  });
});
