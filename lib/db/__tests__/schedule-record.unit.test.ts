import { describe, expect, it } from 'vitest';
import { FIRING_COLUMNS, toFiringSchedule } from '../sql/claim-due';
import { scheduleRecordOf, toScheduleRecord, UndecodableScheduleError } from '../sql/schedule-record';

/** A `SELECT *` row of `schedules` as SQLite's raw queries return it (0/1 booleans, text instants and JSON). */
function sqliteRow(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sch_1',
    revision_id: 'rev_1',
    alias: 'nightly',
    name: 'nightly',
    description: null,
    repeat: 'recurring_cron',
    invocation_time: null,
    cron_expression: '0 3 * * ? *',
    rate_expression: null,
    rate_anchor: null,
    timezone: 'Europe/Paris',
    start_date: null,
    end_date: '2027-01-01T00:00:00.000Z',
    flexible_window_minutes: 5n,
    retry_maximum_attempts: null,
    retry_maximum_event_age_seconds: null,
    dead_letter_arn: null,
    action_after_completion: 'none',
    pause_after_failures: null,
    consecutive_failures: 2n,
    enabled: 1,
    paused_by_type: null,
    paused_by_id: null,
    paused_at: null,
    pause_note: null,
    paused_bulk: 0,
    state: 'active',
    invocation_target_type: 'http',
    invocation_target: '{"url":"http://127.0.0.1:9/x"}',
    eventbridge: null,
    next_fire_at: '2026-12-05T02:00:00.000Z',
    next_scheduled_for: null,
    created_by_type: 'org',
    created_by_id: 'org_1',
    skipped_occurrences: 0n,
    version: 7n,
    completion_expect_seconds: 600n,
    overlap_policy: 'buffer_one',
    created_at: '2026-12-01T00:00:00.000Z',
    updated_at: '2026-12-02T00:00:00.000Z',
    ...over,
  };
}

describe('the schedules row codec', () => {
  it('decodes a raw row of every column into the record, typed values and all', () => {
    const s = toScheduleRecord(sqliteRow());
    expect(s).toMatchObject({ id: 'sch_1', revisionId: 'rev_1', repeat: 'recurring_cron', enabled: true, pausedBulk: false, consecutiveFailures: 2, flexibleWindowMinutes: 5, version: 7, createdByType: 'org', completionExpectSeconds: 600, overlapPolicy: 'buffer_one' });
    expect(s.endDate?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(s.invocationTarget).toEqual({ url: 'http://127.0.0.1:9/x' });
    expect(s.facadeData).toBeNull();
  });

  it('refuses a value a column cannot hold, naming the column', () => {
    expect(() => toScheduleRecord(sqliteRow({ repeat: 'weekly' }))).toThrow(/schedules\.repeat holds "weekly"/);
    expect(() => toScheduleRecord(sqliteRow({ created_by_type: 'robot' }))).toThrow(/schedules\.created_by_type/);
    expect(() => toScheduleRecord(sqliteRow({ timezone: null }))).toThrow(/schedules\.timezone holds NULL/);
    // Every schedule has a name (decision 150, migration 0013): a NULL one is a broken row.
    expect(() => toScheduleRecord(sqliteRow({ name: null }))).toThrow(/schedules\.name holds NULL/);
    expect(() => toScheduleRecord(sqliteRow({ created_at: 'yesterday' }))).toThrow(/schedules\.created_at holds no instant/);
    expect(() => toScheduleRecord(sqliteRow({ overlap_policy: 'queue_all' }))).toThrow(/schedules\.overlap_policy holds "queue_all"/);
    // SQLite keeps JSON as text: a broken document names its column, then what JSON.parse said.
    expect(() => toScheduleRecord(sqliteRow({ invocation_target: '{"target": ' }))).toThrow(/^schedule sch_1 cannot be read: schedules\.invocation_target holds text that is not JSON \(.+\)$/);
    expect(() => toScheduleRecord(sqliteRow({ eventbridge: 'not json' }))).toThrow(/^schedule sch_1 cannot be read: schedules\.eventbridge holds text that is not JSON \(/);
    // The error names the row, so a reader can say which schedule (decision 425).
    let thrown: unknown;
    try {
      toScheduleRecord(sqliteRow({ repeat: 'weekly' }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UndecodableScheduleError);
    expect(thrown).toMatchObject({ scheduleId: 'sch_1', scheduledFor: null });
    expect((thrown as UndecodableScheduleError).cause.message).toBe('schedules.repeat holds "weekly", none of one_time, recurring_cron, recurring_rate');
  });

  it('reads the firing columns only, with the same decoders', () => {
    const cols = FIRING_COLUMNS.split(',').map((c) => c.trim());
    expect(cols).toContain('eventbridge');
    expect(cols).not.toContain('version');
    const firing = toFiringSchedule(Object.fromEntries(Object.entries(sqliteRow()).filter(([k]) => cols.includes(k))));
    expect(Object.keys(firing)).toHaveLength(cols.length);
    expect(firing).toMatchObject({ id: 'sch_1', consecutiveFailures: 2, invocationTargetType: 'http', facadeData: null });
    expect(() => toFiringSchedule({ ...sqliteRow(), action_after_completion: 'archive' })).toThrow(/action_after_completion/);
  });

  it("narrows a model row's enum columns, keeping the rest as Prisma typed it", () => {
    const model = { ...toScheduleRecord(sqliteRow()), state: 'completed' as string, pausedByType: 'system' as string | null };
    const s = scheduleRecordOf(model);
    expect(s.state).toBe('completed');
    expect(s.pausedByType).toBe('system');
    expect(s.createdAt).toBe(model.createdAt);
    expect(() => scheduleRecordOf({ ...model, state: 'paused' })).toThrow(/^schedule sch_1 cannot be read: schedules\.state holds "paused"/);
    expect(() => scheduleRecordOf({ ...model, state: 'paused' })).toThrow(UndecodableScheduleError);
  });
});
