/**
 * `create_schedule`'s writes as typed statements on the transaction's driver connection
 * (docs/decisions.md 405): the `schedules` row and the `activity` entry they write are, column for
 * column and in the database's own stored form, what Prisma's model API wrote for the same values
 * (the create's path before); a taken alias or name is still `409 alias_taken` / `name_taken` when the
 * database's unique key, not the check before it, refuses the insert. Against a real database (run
 * with `TEST_DATABASE=postgresql` too).
 */
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Limits } from '../../config';
import { dialectOfDb, findScheduleByKey, inTransaction, insertSchedule, withSqliteConnection, type Db, type Prisma, type ScheduleRecord } from '../../db';
import { useSchedulerWorld } from '../../testing/catalog-world';
import { isUniqueViolation } from '../../workflows';
import { recordActivity } from '../activity';
import { createSchedule } from '../save/create-schedule';

const LIMITS: Limits = { schedulesPerRevision: 1000, minIntervalSeconds: 60, runRetentionDays: 30, catchupWindowSeconds: 300, executionsPerSessionPerMinute: 600, executionRetentionDays: 30 };
const NOW = new Date('2026-03-08T12:00:00.123Z');
const world = useSchedulerWorld();

const target = () => ({
  target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24, label: 'ü "quoted" \\ back' } }],
});
const opts = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  db: world.db,
  actor: world.w.writer,
  revision: world.ops,
  input: { invocation_target: target(), ...input },
  limits: LIMITS,
  now: NOW,
  ...extra,
});

/**
 * The rows of `sql` with each column's stored value. SQLite: as better-sqlite3 reads the file (text
 * instants, 0/1, BigInt integers, JSON text) with each value's storage class (`typeof(col)`, in
 * `<col>:type`). PostgreSQL: the columns' own types decide the stored form; read through Prisma.
 */
async function rawRows(db: Db, table: 'schedules' | 'activity', where: string, param: string): Promise<Record<string, unknown>[]> {
  if (dialectOfDb(db) === 'postgresql') return db.$queryRawUnsafe(`SELECT * FROM ${table} WHERE ${where} = $1 ORDER BY ${table === 'activity' ? 'action' : 'id'}`, param);
  return withSqliteConnection(db, (c) => {
    const columns = (c.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((r) => r.name);
    const types = columns.map((n) => `typeof("${n}") AS "${n}:type"`).join(', ');
    return c.prepare(`SELECT *, ${types} FROM ${table} WHERE ${where} = ? ORDER BY ${table === 'activity' ? 'action' : 'id'}`).all(param) as Record<string, unknown>[];
  });
}

async function rawSchedule(db: Db, id: string): Promise<Record<string, unknown>> {
  const [row] = await rawRows(db, 'schedules', 'id', id);
  expect(row, `schedule ${id}`).toBeDefined();
  return row!;
}

const rawActivity = (db: Db, scheduleId: string) => rawRows(db, 'activity', 'schedule_id', scheduleId);

const without = (row: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));

/**
 * The create's model write before decision 405, for `record` under another id, name and alias: the
 * checked fields, the creator and instants, the facade data when there is some; the model's
 * @default values (`consecutiveFailures`, `version`, `state` and `skippedOccurrences` unless a
 * missed first occurrence set them) filled by Prisma.
 */
async function modelCreate(db: Db, record: ScheduleRecord, id: string): Promise<void> {
  const { consecutiveFailures, version, facadeData, state, skippedOccurrences, revisionId, invocationTarget, ...rest } = record;
  expect([consecutiveFailures, version]).toEqual([0, 1]);
  await inTransaction(db, (tx) =>
    tx.schedule.create({
      data: {
        ...rest,
        revisionId,
        invocationTarget: invocationTarget as Prisma.InputJsonValue,
        id,
        name: `${record.name}-model`,
        alias: record.alias === null ? null : `${record.alias}-model`,
        ...(state !== 'active' || skippedOccurrences !== 0 ? { state, skippedOccurrences } : {}),
        ...(facadeData !== null ? { facadeData: facadeData as Prisma.InputJsonValue } : {}),
      },
    }),
  );
}

describe('create_schedule writes with typed statements', () => {
  const cases: { name: string; input: Record<string, unknown>; extra?: Record<string, unknown> }[] = [
    {
      name: 'a cron with every optional field',
      input: {
        alias: 'nightly-report',
        description: 'Nightly report',
        repeat: 'recurring_cron',
        cron_expression: '0 9 ? * MON-FRI *',
        timezone: 'Europe/Berlin',
        start_date: '2026-04-01T00:00:00+02:00',
        end_date: '2027-04-01T00:00:00.250Z',
        flexible_time_window: { mode: 'flexible', maximum_window_minutes: 15 },
        retry_policy: { maximum_retry_attempts: 3 },
        pause_after_failures: 5,
        completion: { expect_within_seconds: 600 },
        overlap_policy: 'skip',
        catch_up: { window_seconds: 3600, mode: 'latest', max_burst: 4 },
        action_after_completion: 'delete',
      },
    },
    { name: 'a disabled rate with a pause note', input: { alias: 'every-five', repeat: 'recurring_rate', rate_expression: '5 minutes', timezone: 'UTC', enabled: false, paused: { note: 'until Monday' } } },
    { name: 'a one-time without an alias, with a facade name and facade data', input: { repeat: 'one_time', invocation_time: '2026-05-01T08:30:00', timezone: 'Asia/Kolkata' }, extra: { name: 'Facade-Name', facadeData: { region: 'eu-west-1', raw: { Arn: 'arn:x', Input: '{"a":1}' }, n: 1.5 } } },
  ];
  for (const c of cases) {
    it(`stores what Prisma's model create stored: ${c.name}`, async () => {
      const { db, ops } = world;
      const created = await createSchedule(opts(c.input, c.extra));
      const record = await findScheduleByKey(db, ops.id, created.id, 'id');
      expect(record).not.toBeNull();
      const modelId = `${created.id.slice(0, -4)}beef`;
      await modelCreate(db, record!, modelId);
      const typed = await rawSchedule(db, created.id);
      const model = await rawSchedule(db, modelId);
      // Every column: equal values of the same stored type (SQLite: the same storage class).
      expect(without(typed, 'id', 'name', 'alias')).toEqual(without(model, 'id', 'name', 'alias'));
      expect(Object.keys(typed).sort()).toEqual(Object.keys(model).sort());
      expect(typed.name).toBe(c.extra?.name ?? c.input.alias ?? created.id);
      expect(model.name).toBe(`${typed.name as string}-model`);
      // The answer is the row as stored: what get_schedule reads back.
      expect(created.created_at).toBe(NOW.toISOString());
      expect(created.updated_at).toBe(NOW.toISOString());
      expect(created.version).toBe(1);
    });
  }

  it("writes the activity entry Prisma's model create wrote, for a user and for an access key", async () => {
    const { db, ops, w } = world;
    const created = await createSchedule(opts({ alias: 'activity-check', repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC' }));
    const keyActor: Actor = { ...w.writer, accessKeyId: 'AKIAEXAMPLE0000001' };
    const schedule = { id: created.id, name: created.name, alias: created.alias ?? null };
    await inTransaction(db, (tx) => recordActivity(tx, { revisionId: ops.id, schedule, action: 'update', by: keyActor, fields: ['description', 'enabled'], at: NOW }));
    // The model path of before, for the same two entries, under the action names `create~`/`update~` (kept apart by ORDER BY).
    await inTransaction(db, async (tx) => {
      await tx.activityEntry.create({ data: { id: 'model-create', revisionId: ops.id, scheduleId: created.id, scheduleLabel: created.name, action: 'create~', actorType: 'user', actorId: w.writer.id, ownerType: null, ownerId: null, createdAt: NOW } });
      await tx.activityEntry.create({
        data: { id: 'model-update', revisionId: ops.id, scheduleId: created.id, scheduleLabel: created.name, action: 'update~', actorType: 'access_key', actorId: 'AKIAEXAMPLE0000001', ownerType: 'user', ownerId: w.writer.id, details: { fields: ['description', 'enabled'] }, createdAt: NOW },
      });
    });
    const rows = await rawActivity(db, created.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'create~', 'update', 'update~']);
    const [typedCreate, modelCreateRow, typedUpdate, modelUpdate] = rows.map((r) => without(r, 'id', 'action'));
    expect(typedCreate).toEqual(modelCreateRow);
    expect(typedUpdate).toEqual(modelUpdate);
    expect(typedCreate!.actor_id).toBe(w.writer.id);
    expect(typedCreate!.details).toBeNull();
    expect(typedUpdate!.details).not.toBeNull();
  });

  it('a taken alias or name at the insert is a unique violation of the driver that isUniqueViolation takes', async () => {
    const { db, ops } = world;
    const created = await createSchedule(opts({ alias: 'unique-alias', repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC' }));
    const record = (await findScheduleByKey(db, ops.id, created.id, 'id'))!;
    const again = (changes: Partial<ScheduleRecord>) =>
      inTransaction(db, (tx) => insertSchedule(tx, { ...record, id: `${record.id.slice(0, -4)}${Math.random().toString(16).slice(2, 6)}`, ...changes })).then(
        () => null,
        (e: unknown) => e,
      );
    const sameAlias = await again({ name: 'other-name' });
    const sameName = await again({ alias: 'other-alias' });
    const sameId = await inTransaction(db, (tx) => insertSchedule(tx, { ...record, alias: 'x-alias', name: 'x-name' })).then(
      () => null,
      (e: unknown) => e,
    );
    for (const e of [sameAlias, sameName, sameId]) expect(isUniqueViolation(e), String(e)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('concurrent creates of one alias: one schedule, the other 409 alias_taken (SPEC §5.2), and one activity entry', async () => {
    const { db, ops } = world;
    const input = { alias: 'race-alias', repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC' };
    const results = await Promise.allSettled([createSchedule(opts(input)), createSchedule(opts(input)), createSchedule(opts(input))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'alias_taken', status: 409 });
    const stored = await findScheduleByKey(db, ops.id, 'race-alias', 'alias');
    expect((await rawActivity(db, stored!.id)).map((r) => r.action)).toEqual(['create']);
  });

  it('an EventBridge name another schedule holds, refused by the unique key, is 409 name_taken', async () => {
    const { db, ops } = world;
    const record = (await findScheduleByKey(db, ops.id, 'race-alias', 'alias'))!;
    // The pre-insert check passes (the holder is created inside the same window by another transaction on PostgreSQL,
    // or already there on SQLite): both paths answer name_taken.
    const results = await Promise.allSettled([
      createSchedule(opts({ repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC' }, { name: 'Same-Name' })),
      createSchedule(opts({ repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC' }, { name: 'Same-Name' })),
    ]);
    expect(record).not.toBeNull();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'name_taken', status: 409 });
  });
});
