/**
 * The raw-SQL ceiling of bench/worker.ts: a worker process that does the fire path's writes and
 * nothing else, on the database driver directly (better-sqlite3 / node-postgres, no Prisma, no
 * catalog rules, no cron): per batch, in ONE transaction,
 *   1. claim due schedules through the next_fire_at index, oldest first, LIMIT batch
 *      (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: BEGIN IMMEDIATE), reading their target;
 *   2. read the targets' sessions in one statement (the least a set-based resolution reads);
 *   3. advance every claimed row in one UPDATE with the product's ownership WHERE (its common form,
 *      MOVE_NEXT_FIRE_SQL: the occurrence columns only);
 *   4. insert one execution per fire and 5. one run per fire, each one multi-row statement;
 * then COMMIT. Same schema, same indexes, and for 3–5 the product's own statements (lib/db/sql). On
 * PostgreSQL each statement is a prepared statement named after its text, as the product sends them (decision 429).
 *
 *   DATABASE_URL=… BATCH=500 tsx bench/raw-worker.ts      (prints "ready" once connected; SIGTERM stops it)
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { INSERT_EXECUTIONS_SQL, MOVE_NEXT_FIRE_SQL, INSERT_RUNS_SQL } from '../lib/db';
import { batch, dialect, instant, parse, pollMs, prepared, stopping, url } from './raw-process';

/** The next occurrence the ceiling writes: one year on (no cron step: that is the product's cost, not the ceiling's). */
const nextOf = (seen: string) => instant(new Date(parse(seen).getTime() + 365 * 86_400_000));

interface Claimed {
  id: string;
  next_fire_at: string;
  revision_id: string;
  invocation_target: string | { target: { session: string }; input_data: unknown };
  created_by_type: string;
  created_by_id: string;
}

function docs(rows: Claimed[], sessions: Map<string, { id: string; revision_id: string }>, definitionId: string, now: Date) {
  const at = instant(now);
  const advances = rows.map((r) => ({ id: r.id, seen: r.next_fire_at, next_fire_at: nextOf(r.next_fire_at), next_scheduled_for: null, state: 'active', skipped: 0 }));
  const executions: object[] = [];
  const runs: object[] = [];
  for (const r of rows) {
    const it = typeof r.invocation_target === 'string' ? JSON.parse(r.invocation_target) : r.invocation_target;
    const session = sessions.get(it.target.session)!;
    const executionId = randomUUID();
    const runId = randomUUID();
    executions.push({ id: executionId, revision_id: session.revision_id, session_id: session.id, definition_id: definitionId, description: null, input_data: it.input_data, created_by_type: r.created_by_type, created_by_id: r.created_by_id, schedule_id: r.id, run_id: runId, created_at: at });
    runs.push({
      id: runId,
      schedule_id: r.id,
      scheduled_for: r.next_fire_at,
      trigger: 'schedule',
      attempt: 1,
      status: 'success',
      result: { execution_id: executionId, revision_id: session.revision_id, session_id: session.id, definition_id: definitionId },
      execution_id: executionId,
      next_attempt_at: null,
      exhausted: null,
      dead_letter_id: null,
      created_at: at,
    });
  }
  return { advances, executions, runs, at };
}

const CLAIM_COLUMNS = 'id, next_fire_at, revision_id, invocation_target, created_by_type, created_by_id';

async function sqlite(file: string): Promise<void> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 15000');
  const claim = db.prepare(`SELECT ${CLAIM_COLUMNS} FROM schedules WHERE next_fire_at <= ? ORDER BY next_fire_at LIMIT ?`);
  const sessionsOf = db.prepare(`SELECT id, revision_id, alias FROM workflow_sessions WHERE alias IN (SELECT value FROM json_each(?))`);
  const definition = db.prepare(`SELECT id FROM definitions WHERE alias = 'triage'`).get() as { id: string };
  // The product's own write statements (lib/db/sql): the ceiling differs in how it gets there, not in what it writes.
  const advance = db.prepare(MOVE_NEXT_FIRE_SQL.sqlite);
  const executions = db.prepare(INSERT_EXECUTIONS_SQL.sqlite);
  const runs = db.prepare(INSERT_RUNS_SQL.sqlite);
  const fireBatch = (): number => {
    db.prepare('BEGIN IMMEDIATE').run();
    try {
      const now = new Date();
      const rows = claim.all(instant(now), batch) as Claimed[];
      if (rows.length) {
        const aliases = [...new Set(rows.map((r) => (JSON.parse(r.invocation_target as string) as { target: { session: string } }).target.session))];
        const sessions = new Map((sessionsOf.all(JSON.stringify(aliases)) as { id: string; revision_id: string; alias: string }[]).map((s) => [s.alias, s]));
        const d = docs(rows, sessions, definition.id, now);
        advance.all(JSON.stringify(d.advances));
        executions.run(JSON.stringify(d.executions));
        runs.run(JSON.stringify(d.runs));
      }
      db.prepare('COMMIT').run();
      return rows.length;
    } catch (e) {
      db.prepare('ROLLBACK').run();
      throw e;
    }
  };
  console.log('ready');
  while (!stopping()) {
    if (fireBatch() === 0) await new Promise((r) => setTimeout(r, pollMs));
  }
  db.close();
}

async function postgres(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const definition = (await client.query(`SELECT id FROM definitions WHERE alias = 'triage'`)).rows[0] as { id: string };
  // Timestamps travel as the product's text form; node-postgres must not turn them into local Dates.
  pg.types.setTypeParser(1114, (v: string) => v);
  const fireBatch = async (): Promise<number> => {
    await client.query('BEGIN');
    try {
      const now = new Date();
      const rows = (await client.query(prepared(`SELECT ${CLAIM_COLUMNS} FROM schedules WHERE next_fire_at <= $1::timestamp(3) ORDER BY next_fire_at LIMIT $2 FOR UPDATE SKIP LOCKED`, [instant(now), batch]))).rows as Claimed[];
      if (rows.length) {
        const aliases = [...new Set(rows.map((r) => (r.invocation_target as { target: { session: string } }).target.session))];
        const found = (await client.query(prepared(`SELECT id, revision_id, alias FROM workflow_sessions WHERE alias = ANY($1::text[])`, [aliases]))).rows as { id: string; revision_id: string; alias: string }[];
        const d = docs(rows, new Map(found.map((s) => [s.alias, s])), definition.id, now);
        await client.query(prepared(MOVE_NEXT_FIRE_SQL.postgresql, [JSON.stringify(d.advances)]));
        await client.query(prepared(INSERT_EXECUTIONS_SQL.postgresql, [JSON.stringify(d.executions)]));
        await client.query(prepared(INSERT_RUNS_SQL.postgresql, [JSON.stringify(d.runs)]));
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (e) {
      await client.query('ROLLBACK');
      throw e;
    }
  };
  console.log('ready');
  while (!stopping()) {
    if ((await fireBatch()) === 0) await new Promise((r) => setTimeout(r, pollMs));
  }
  await client.end();
}

(dialect === 'sqlite' ? sqlite(url.slice('file:'.length)) : postgres(url)).catch((e) => {
  console.error(e);
  process.exit(1);
});
