/**
 * SPEC §17 "each (incident, event, channel, round) is sent exactly once through worker crashes", on
 * the dialect of TEST_DATABASE: 50 schedules failing every minute, a rule alerting `failure` with
 * `realert_interval_seconds: 120` to a webhook channel (a real receiver on loopback that answers after
 * 200 ms, verifying each signature), and a real worker process (`worker/main.ts`) SIGKILLed 10 times
 * while it fires, raises and sends, restarted each time. The workers' clock runs 20 times faster than
 * real time (`WORKER_TEST_CLOCK`), so re-alert rounds come every 6 s and a dead worker's leases end in
 * seconds. Afterwards, counted at the receiver: every notification raised arrived, and exactly one
 * notification per (incident, event, channel, round); a send the kill interrupted arrives again under
 * the same webhook-id (at most once more per kill), which receivers drop.
 */
import { expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { workerClock } from '../../lib/config';
import { closeSession, createDefinition, createSession } from '../../lib/workflows';
import { ALERT_SENDS_PER_CHANNEL, createAlertChannel, createAlertRule, createSchedule, updateAlertRule } from '../../lib/schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { startReceiver } from '../../lib/testing/receiver';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const SCHEDULES = 50;
const KILLS = 10;
const RATE = 20;

const t = useTestDatabase();

it('§17 SIGKILL ×10 while 50 schedules fail and alert: one notification per (incident, event, channel, round) at the receiver', async () => {
  let secret = '';
  const bad: string[] = [];
  const receiver = await startReceiver((req) => {
    // The Standard Webhooks signature, computed here: the workers' fast clock puts webhook-timestamp
    // in the future, past the library's 5-minute tolerance, so only the HMAC is checked.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`).digest('base64');
    if (!req.headers['webhook-signature']?.split(' ').includes(`v1,${expected}`)) bad.push(req.headers['webhook-id']);
    return { status: 200, body: 'ok', delayMs: 200 };
  });
  const epochMs = Date.now();
  const clock = workerClock({ epochMs, rate: RATE });
  const startWorker = () =>
    spawnWorker(t.url, {
      WORKER_POLL_INTERVAL_MS: '100', WORKER_BATCH_SIZE: '20', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${epochMs}:${RATE}`,
      SCHEDULER_CATCHUP_WINDOW_SECONDS: '3600', SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1', SCHEDULER_DELIVERY_CONCURRENCY: '8',
    });
  const db = t.db;
  try {
    const ctx = await seed(db, undefined);
    const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
    const revision = { id: rev.id, blobId: rev.blobId };
    const admin = { type: 'user' as const, id: ctx.userId, roleCap: null };
    // A workflow whose session is closed after the saves: every fire fails `session_not_open`.
    const blob = await db.blob.create({ data: { orgId: ctx.orgId, alias: 'failing-work', type: 'workflow', name: 'failing-work' } });
    const wf = await db.revision.create({ data: { blobId: blob.id, state: 'draft' } });
    await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: wf.id } });
    await createSession(db, { actor: admin, revisionId: wf.id, alias: 'closed-session' });
    await createDefinition(db, { actor: admin, revisionId: wf.id, alias: 'work-def', name: 'Work' });
    const now = clock();
    const ids: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const s = await createSchedule({
        db, actor: admin, revision, limits: TEST_LIMITS, now,
        input: { alias: `failing-${i}`, repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: { target: { org: 'acme-corp', blob: 'failing-work', revision: 'default', session: 'closed-session' }, workflow: { definition: 'work-def' } } },
      });
      ids.push(s.id);
    }
    await closeSession(db, { actor: admin, revisionId: wf.id, session: 'closed-session' });
    const channel = await createAlertChannel(db, { actor: admin, org: 'acme-corp', now, allowList: { hosts: [], addresses: ['127.0.0.1'], ranges: [] }, input: { type: 'webhook', name: 'crash-hook', config: { url: receiver.url('/alerts') } } });
    secret = channel.signing_secret!;
    const rule = await createAlertRule({ db, actor: admin, revision, now, input: { events: ['failure'], channels: [channel.channel.id], realert_interval_seconds: 120 } });

    // Killed 10 times while it fires, raises and sends: each life, once the worker made progress
    // (a run recorded or an alert request received), 0–1 s more, so kills land mid-batch and mid-send.
    const progress = async () => (await db.run.count()) + receiver.requests.length;
    let lives = 0;
    for (let k = 0; k < KILLS; k++) {
      const before = await progress();
      const w = startWorker();
      for (const until = Date.now() + 30_000; Date.now() < until && (await progress()) === before; ) await sleep(50);
      await sleep(Math.random() * 1000);
      w.kill('SIGKILL');
      await exited(w);
      if ((await progress()) > before) lives++;
    }
    expect(lives, 'lives that made progress before their kill').toBe(KILLS);
    // No new incident or round from now on; a last worker sends what is still due.
    await updateAlertRule({ db, actor: admin, revision, now: clock(), input: { rule_id: rule.id, enabled: false } });
    const w = startWorker();
    let drained = false;
    for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
      if ((await db.alert.count({ where: { status: 'pending' } })) === 0) {
        drained = true;
        break;
      }
    }
    w.kill('SIGKILL');
    await exited(w);
    expect(drained, 'every alert raised was sent').toBe(true);

    const rows = await db.alert.findMany({ where: { ruleId: rule.id } });
    const rounds = new Set(rows.map((r) => r.round));
    expect(rows.length, 'alerts raised').toBeGreaterThanOrEqual(SCHEDULES);
    expect(rounds.size, 're-alert rounds raised').toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(bad, 'every request carried a valid signature').toEqual([]);

    // Counted at the receiver: one notification per (incident, event, channel, round) — one id each,
    // and every one raised arrived.
    const received = receiver.requests.map((q) => ({ id: q.headers['webhook-id'], body: JSON.parse(q.body) as { incident_id: string; event: string; round: number } }));
    const idsByKey = new Map<string, Set<string>>();
    for (const r of received) {
      const key = `${r.body.incident_id}|${r.body.event}|${channel.channel.id}|${r.body.round}`;
      (idsByKey.get(key) ?? idsByKey.set(key, new Set()).get(key)!).add(r.id);
    }
    expect([...idsByKey.values()].filter((s) => s.size !== 1), 'keys notified under more than one id').toEqual([]);
    expect(idsByKey.size).toBe(rows.length);
    expect(new Set(received.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
    const repeats = received.length - rows.length;
    console.log(`alerts: ${rows.length} raised over ${rounds.size} rounds for ${new Set(rows.map((r) => r.incidentId)).size} incidents; ${received.length} requests received for ${idsByKey.size} distinct notifications, ${repeats} repeated under the same id after ${KILLS} kills (bound ${KILLS * ALERT_SENDS_PER_CHANNEL})`);
    // A send interrupted by a kill is sent again once its lease ends (at least once), under the same id.
    expect(repeats).toBeLessThanOrEqual(rows.reduce((n, r) => n + r.sends - 1, 0));
    // Only the sends in flight at a kill are repeated: at most ALERT_SENDS_PER_CHANNEL per kill (one channel, one worker at a time).
    expect.soft(repeats, 'requests repeated after the kills').toBeLessThanOrEqual(KILLS * ALERT_SENDS_PER_CHANNEL);
    // Sends of one incident and channel go out in round order: every request of round n (repeats
    // included) arrives before any of round n + 1.
    const roundsByIncident = new Map<string, number[]>();
    for (const r of received) (roundsByIncident.get(r.body.incident_id) ?? roundsByIncident.set(r.body.incident_id, []).get(r.body.incident_id)!).push(r.body.round);
    const outOfOrder = [...roundsByIncident].filter(([, seq]) => seq.some((round, i) => i > 0 && round < seq[i - 1]));
    expect(outOfOrder.map(([incident, seq]) => `${incident}: ${seq.join(',')}`), 'incidents whose rounds arrived out of order').toEqual([]);
  } finally {
    await receiver.close();
  }
}, 240_000);
