/**
 * The raw ceiling of bench/webhooks.ts: a process that delivers due webhook schedules doing the
 * product's writes and sends and nothing else, on the database driver directly (better-sqlite3 /
 * node-postgres, no Prisma, no engine rules, no cron, no fairness keys):
 *   1. per batch, in ONE transaction: claim due schedules (the product's CLAIM_DUE_SQL), advance
 *      them one year (MOVE_NEXT_FIRE_SQL) and store one in-flight `pending_attempts` row each
 *      (INSERT_PENDING_SQL), then COMMIT;
 *   2. each attempt takes a slot of a pool of SCHEDULER_DELIVERY_CONCURRENCY (default 64) and counts
 *      its send (MARK_SENDS_SQL; the marks asked for while one commits share the next transaction);
 *   3. sends the request as the product's `http` driver does: node:http, `agent: false` (a new
 *      connection per request, no keep-alive), JSON body, Standard Webhooks signature (HMAC-SHA256);
 *   4. once answered, records it: the settled attempts waiting while a record commits share the next
 *      transaction (at most 500): delete the in-flight rows (TAKE_IN_FLIGHT_SQL), read their schedules
 *      (LOCK_FIRING_SQL: locked on PostgreSQL) and insert the runs (INSERT_RUNS_SQL).
 * The SQL texts are the product's own (lib/db/sql): the ceiling differs in how it gets there, not in
 * what it writes. On PostgreSQL each is a prepared statement named after its text, as the product
 * sends them (decision 429).
 *
 *   DATABASE_URL=… tsx bench/raw-webhooks.ts      (prints "ready" once connected; SIGTERM stops it)
 *   BATCH (default 500), POLL_MS (default 50), SCHEDULER_DELIVERY_CONCURRENCY (default 64)
 */
import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { CLAIM_DUE_SQL, INSERT_PENDING_SQL, INSERT_RUNS_SQL, LOCK_FIRING_SQL, MARK_SENDS_SQL, MOVE_NEXT_FIRE_SQL, TAKE_IN_FLIGHT_SQL } from '../lib/db';
import { occurrenceId } from '../lib/targets';
import { batch, dialect, instant, parse, pollMs, prepared, stopping, url } from './raw-process';

const poolSize = Number(process.env.SCHEDULER_DELIVERY_CONCURRENCY ?? 64);
const RECORD_CHUNK = 500;
const secret = `whsec_${randomBytes(24).toString('base64')}`;

/** The three kinds of statement work, per dialect: each runs one transaction. */
interface Store {
  /** Claim, advance and store in flight; returns the attempts to deliver. */
  claim(now: Date): Promise<Attempt[]>;
  /** Count the sends of `ids`; returns those marked. */
  mark(ids: string[]): Promise<Set<string>>;
  /** Record answered attempts. */
  record(done: Answered[], now: Date): Promise<void>;
  close(): Promise<void>;
}

interface Attempt {
  pendingId: string;
  runId: string;
  scheduleId: string;
  scheduledFor: Date;
  url: string;
}
interface Answered {
  attempt: Attempt;
  status: number;
  excerpt: string;
}

interface ClaimedRow {
  id: string;
  next_fire_at: string;
  next_scheduled_for: string | null;
  invocation_target: string | { url: string };
}

/** The writes of a claimed batch: advances (one year on) and in-flight rows; the attempts they stand for. */
function claimDocs(rows: ClaimedRow[], now: Date) {
  const at = instant(now);
  const lease = instant(new Date(now.getTime() + 70_000));
  const advances = rows.map((r) => ({ id: r.id, seen: r.next_fire_at, next_fire_at: instant(new Date(parse(r.next_fire_at).getTime() + 365 * 86_400_000)), next_scheduled_for: null, state: 'active', skipped: 0 }));
  const attempts: Attempt[] = rows.map((r) => {
    const target = typeof r.invocation_target === 'string' ? (JSON.parse(r.invocation_target) as { url: string }) : r.invocation_target;
    return { pendingId: randomUUID(), runId: randomUUID(), scheduleId: r.id, scheduledFor: parse(r.next_scheduled_for ?? r.next_fire_at), url: target.url };
  });
  const pending = attempts.map((a) => ({
    id: a.pendingId,
    schedule_id: a.scheduleId,
    scheduled_for: instant(a.scheduledFor),
    trigger: 'schedule',
    attempt: 1,
    due_at: lease,
    in_flight: dialect === 'sqlite' ? 1 : true,
    deliveries: 0,
    dead_letter_id: null,
    run_id: a.runId,
    checkin: null,
    created_at: at,
  }));
  return { advances, pending, attempts };
}

function runDocs(done: Answered[], now: Date) {
  const at = instant(now);
  return done.map((d) => ({
    id: d.attempt.runId,
    schedule_id: d.attempt.scheduleId,
    scheduled_for: instant(d.attempt.scheduledFor),
    trigger: 'schedule',
    attempt: 1,
    status: d.status >= 200 && d.status < 300 ? 'success' : 'invocation_error',
    result: { http_status: d.status, response_excerpt: d.excerpt },
    execution_id: null,
    next_attempt_at: null,
    exhausted: null,
    dead_letter_id: null,
    created_at: at,
    outcome: null,
    started_at: null,
    finished_at: null,
    duration_ms: null,
    exit_code: null,
    outcome_message: null,
    outcome_due_at: null,
  }));
}

function sqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 15000');
  const st = (sql: string) => db.prepare(sql);
  const claim = st(CLAIM_DUE_SQL.sqlite);
  const advance = st(MOVE_NEXT_FIRE_SQL.sqlite);
  const pending = st(INSERT_PENDING_SQL.sqlite);
  const mark = st(MARK_SENDS_SQL.sqlite);
  const take = st(TAKE_IN_FLIGHT_SQL.sqlite);
  const load = st(LOCK_FIRING_SQL.sqlite);
  const runs = st(INSERT_RUNS_SQL.sqlite);
  const tx = <T>(fn: () => T): T => {
    st('BEGIN IMMEDIATE').run();
    try {
      const out = fn();
      st('COMMIT').run();
      return out;
    } catch (e) {
      st('ROLLBACK').run();
      throw e;
    }
  };
  return {
    claim: async (now) =>
      tx(() => {
        const rows = claim.all(instant(now), batch) as ClaimedRow[];
        if (!rows.length) return [];
        const d = claimDocs(rows, now);
        advance.all(JSON.stringify(d.advances));
        pending.run(JSON.stringify(d.pending));
        return d.attempts;
      }),
    mark: async (ids) => tx(() => new Set((mark.all(JSON.stringify(ids)) as { id: string }[]).map((r) => r.id))),
    record: async (done, now) =>
      tx(() => {
        const taken = new Set((take.all(JSON.stringify(done.map((d) => d.attempt.pendingId))) as { id: string }[]).map((r) => r.id));
        const mine = done.filter((d) => taken.has(d.attempt.pendingId));
        load.all(JSON.stringify(mine.map((d) => d.attempt.scheduleId)));
        runs.run(JSON.stringify(runDocs(mine, now)));
      }),
    close: async () => void db.close(),
  };
}

async function postgresStore(connectionString: string): Promise<Store> {
  // Timestamps travel as the product's text form; node-postgres must not turn them into local Dates.
  pg.types.setTypeParser(1114, (v: string) => v);
  // One connection per kind of work, as the product's claim, send marks and records run side by side.
  const [claimer, marker, recorder] = await Promise.all([0, 1, 2].map(async () => {
    const c = new pg.Client({ connectionString });
    await c.connect();
    return c;
  }));
  const tx = async <T>(c: pg.Client, fn: () => Promise<T>): Promise<T> => {
    await c.query('BEGIN');
    try {
      const out = await fn();
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK');
      throw e;
    }
  };
  return {
    claim: (now) =>
      tx(claimer, async () => {
        const rows = (await claimer.query(prepared(CLAIM_DUE_SQL.postgresql, [instant(now), batch]))).rows as ClaimedRow[];
        if (!rows.length) return [];
        const d = claimDocs(rows, now);
        await claimer.query(prepared(MOVE_NEXT_FIRE_SQL.postgresql, [JSON.stringify(d.advances)]));
        await claimer.query(prepared(INSERT_PENDING_SQL.postgresql, [JSON.stringify(d.pending)]));
        return d.attempts;
      }),
    mark: (ids) => tx(marker, async () => new Set(((await marker.query(prepared(MARK_SENDS_SQL.postgresql, [JSON.stringify(ids)]))).rows as { id: string }[]).map((r) => r.id))),
    record: (done, now) =>
      tx(recorder, async () => {
        const taken = new Set(((await recorder.query(prepared(TAKE_IN_FLIGHT_SQL.postgresql, [JSON.stringify(done.map((d) => d.attempt.pendingId))]))).rows as { id: string }[]).map((r) => r.id));
        const mine = done.filter((d) => taken.has(d.attempt.pendingId));
        await recorder.query(prepared(LOCK_FIRING_SQL.postgresql, [JSON.stringify(mine.map((d) => d.attempt.scheduleId))]));
        await recorder.query(prepared(INSERT_RUNS_SQL.postgresql, [JSON.stringify(runDocs(mine, now))]));
      }),
    close: async () => {
      await Promise.all([claimer, marker, recorder].map((c) => c.end()));
    },
  };
}

/** One request as the product's `http` driver sends it: a fresh connection, signed JSON, the first 1 KiB of the answer. */
function send(a: Attempt): Promise<Answered> {
  const id = occurrenceId({ scheduleId: a.scheduleId, scheduledFor: a.scheduledFor, trigger: 'schedule' });
  const now = new Date();
  const body = JSON.stringify({
    version: '0',
    id,
    'detail-type': 'Scheduled Event',
    source: 'aws.scheduler',
    account: '123456789012',
    time: `${a.scheduledFor.toISOString().slice(0, 19)}Z`,
    region: 'us-east-1',
    resources: [`arn:aws:scheduler:us-east-1:123456789012:schedule/default/${a.scheduleId}`],
    detail: '{}',
  });
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'scheduler-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
    'content-length': String(Buffer.byteLength(body)),
  };
  return new Promise((resolve) => {
    const out = http.request(a.url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ attempt: a, status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, 1024).toString('utf8') });
        out.destroy();
      });
    });
    out.on('error', () => resolve({ attempt: a, status: 0, excerpt: '' }));
    out.end(body);
  });
}

async function main(): Promise<void> {
  const store = dialect === 'sqlite' ? sqliteStore(url.slice('file:'.length)) : await postgresStore(url);
  const queue: Attempt[] = [];
  let inHand = 0;
  let active = 0;

  // Send marks: the ids asked for while a mark commits share the next transaction.
  let markWaiting: { ids: string[]; done: (marked: Set<string>) => void }[] = [];
  let marking = false;
  const markNext = async () => {
    if (marking || !markWaiting.length) return;
    marking = true;
    const group = markWaiting;
    markWaiting = [];
    const marked = await store.mark(group.flatMap((g) => g.ids));
    marking = false;
    for (const g of group) g.done(marked);
    void markNext();
  };
  const markSend = (id: string) =>
    new Promise<boolean>((resolve) => {
      markWaiting.push({ ids: [id], done: (m) => resolve(m.has(id)) });
      void markNext();
    });

  // Records: the answers that arrive while a record commits share the next transaction.
  const answered: Answered[] = [];
  let recording = false;
  const recordNext = async () => {
    if (recording || !answered.length) return;
    recording = true;
    const chunk = answered.splice(0, RECORD_CHUNK);
    await store.record(chunk, new Date());
    inHand -= chunk.length;
    recording = false;
    void recordNext();
  };

  const pump = () => {
    while (active < poolSize && queue.length) {
      const a = queue.shift()!;
      active++;
      void (async () => {
        if (await markSend(a.pendingId)) answered.push(await send(a));
        else inHand--;
        active--;
        void recordNext();
        pump();
      })();
    }
  };

  console.log('ready');
  while (!stopping()) {
    // Like the product's worker, claim more only while fewer than a batch wait for a slot.
    if (queue.length >= batch) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const claimed = await store.claim(new Date());
    inHand += claimed.length;
    queue.push(...claimed);
    pump();
    if (claimed.length === 0) await new Promise((r) => setTimeout(r, pollMs));
  }
  while (inHand > 0) await new Promise((r) => setTimeout(r, 20));
  await store.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
