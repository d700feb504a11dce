/**
 * THE ROW CODEC of `schedules` (prisma/schema.prisma): every row the domain reads — raw SQL's
 * (`toScheduleRecord`, `pickScheduleRecord`) or Prisma's model API's (`scheduleRecordOf`) — is parsed
 * here, once, into `ScheduleRecord`, the domain's one shape of a stored schedule, its enum columns
 * narrowed to their vocabularies (lib/db/contract.ts). A value a column cannot hold throws, naming the
 * column. The fire path reads a subset of the columns (`FiringSchedule`, claim-due.ts) through the
 * same decoders.
 */
import { toError } from '../../errors';
import { AFTER_COMPLETION_ACTIONS, CATCH_UP_MODES, CREATOR_TYPES, OVERLAP_POLICIES, REPEATS, SCHEDULE_STATES, type AfterCompletionAction, type CatchUpMode, type CreatorType, type OverlapPolicy, type PauserType, type Repeat, type ScheduleState } from '../contract';

/** A `schedules` row, camelCase like the Prisma model (see prisma/schema.prisma for each column). */
export interface ScheduleRecord {
  id: string;
  revisionId: string;
  alias: string | null;
  /** The name in its schedule group (SPEC §14): the EventBridge `Name`, else the alias, else the id. Never null. */
  name: string;
  description: string | null;
  repeat: Repeat;
  invocationTime: string | null;
  cronExpression: string | null;
  rateExpression: string | null;
  rateAnchor: Date | null;
  timezone: string;
  startDate: Date | null;
  endDate: Date | null;
  flexibleWindowMinutes: number | null;
  retryMaximumAttempts: number | null;
  retryMaximumEventAgeSeconds: number | null;
  deadLetterArn: string | null;
  deadLetterRoleArn: string | null;
  actionAfterCompletion: AfterCompletionAction;
  pauseAfterFailures: number | null;
  consecutiveFailures: number;
  enabled: boolean;
  pausedByType: PauserType | null;
  pausedById: string | null;
  pausedAt: Date | null;
  pauseNote: string | null;
  pausedBulk: boolean;
  state: ScheduleState;
  /** `invocation_target_type`: the driver's name (lib/targets), opaque here. */
  invocationTargetType: string;
  invocationTarget: unknown;
  /** What an API facade stored beside the product's fields (the `eventbridge` column, SPEC §14), or null. */
  facadeData: unknown;
  nextFireAt: Date | null;
  nextScheduledFor: Date | null;
  createdByType: CreatorType;
  createdById: string;
  skippedOccurrences: number;
  /** SPEC §15: incremented by every change but a fire's. */
  version: number;
  /** SPEC §16.1 `completion.expect_within_seconds`, or null. */
  completionExpectSeconds: number | null;
  /** SPEC §16.2. */
  overlapPolicy: OverlapPolicy;
  /** SPEC §18.2 `catch_up`: all three null when the schedule sets none. */
  catchUpWindowSeconds: number | null;
  catchUpMode: CatchUpMode | null;
  catchUpMaxBurst: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A raw instant column (Date, or text on SQLite) as a Date; null stays null. An INTEGER in a SQLite
 * instant column (data written by something else: the product writes text) is epoch ms, as Prisma's
 * adapter reads it; the driver hands it over as a BigInt.
 */
export const rawInstant = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(typeof v === 'bigint' ? Number(v) : (v as string | number | Date)));

/** A raw boolean column (boolean on PostgreSQL, 0/1 on SQLite). */
export const rawBoolean = (v: unknown): boolean => v === true || v === 1 || v === 1n;

/** A raw nullable integer column (number, bigint or null). */
export const rawIntOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * A raw JSON column (parsed, or text on SQLite) as a value; SQL NULL is null. Text that is not JSON
 * (SQLite keeps JSON as text, so a hand edit can break it; PostgreSQL's jsonb cannot hold it) is a
 * throw naming the column (`table.column`), then what JSON.parse said.
 */
export function rawJson(column: string, v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  try {
    return JSON.parse(v);
  } catch (e) {
    throw new Error(`${column} holds text that is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** A text column's value, or a throw naming the column (`table.column`). */
export function rawText(column: string, v: unknown): string {
  if (typeof v !== 'string') throw new Error(`${column} holds ${v === null ? 'NULL' : typeof v}, not text`);
  return v;
}
/** A nullable text column's value (null stays null), or a throw naming the column. */
export const rawTextOrNull = (column: string, v: unknown): string | null => (v === null || v === undefined ? null : rawText(column, v));
/** An enum column's value, one of `values`, or a throw naming the column and the value. */
export function rawOneOf<T extends string>(values: readonly T[], column: string, v: unknown): T {
  const s = rawText(column, v);
  const found = values.find((x) => x === s);
  if (found === undefined) throw new Error(`${column} holds "${s.slice(0, 40)}", none of ${values.join(', ')}`);
  return found;
}
const text = (column: string, v: unknown) => rawText(`schedules.${column}`, v);
const textOrNull = (column: string, v: unknown) => rawTextOrNull(`schedules.${column}`, v);
const oneOf = <T extends string>(values: readonly T[], column: string, v: unknown) => rawOneOf(values, `schedules.${column}`, v);
const instant = (column: string, v: unknown): Date => {
  const d = rawInstant(v);
  if (d === null || Number.isNaN(d.getTime())) throw new Error(`schedules.${column} holds no instant`);
  return d;
};

/** Each field's column and how its raw value (raw SQL, either dialect) decodes. */
const COLUMNS: { [K in keyof ScheduleRecord]: { column: string; decode: (v: unknown) => ScheduleRecord[K] } } = {
  id: { column: 'id', decode: (v) => text('id', v) },
  revisionId: { column: 'revision_id', decode: (v) => text('revision_id', v) },
  alias: { column: 'alias', decode: (v) => textOrNull('alias', v) },
  name: { column: 'name', decode: (v) => text('name', v) },
  description: { column: 'description', decode: (v) => textOrNull('description', v) },
  repeat: { column: 'repeat', decode: (v) => oneOf(REPEATS, 'repeat', v) },
  invocationTime: { column: 'invocation_time', decode: (v) => textOrNull('invocation_time', v) },
  cronExpression: { column: 'cron_expression', decode: (v) => textOrNull('cron_expression', v) },
  rateExpression: { column: 'rate_expression', decode: (v) => textOrNull('rate_expression', v) },
  rateAnchor: { column: 'rate_anchor', decode: rawInstant },
  timezone: { column: 'timezone', decode: (v) => text('timezone', v) },
  startDate: { column: 'start_date', decode: rawInstant },
  endDate: { column: 'end_date', decode: rawInstant },
  flexibleWindowMinutes: { column: 'flexible_window_minutes', decode: rawIntOrNull },
  retryMaximumAttempts: { column: 'retry_maximum_attempts', decode: rawIntOrNull },
  retryMaximumEventAgeSeconds: { column: 'retry_maximum_event_age_seconds', decode: rawIntOrNull },
  deadLetterArn: { column: 'dead_letter_arn', decode: (v) => textOrNull('dead_letter_arn', v) },
  deadLetterRoleArn: { column: 'dead_letter_role_arn', decode: (v) => textOrNull('dead_letter_role_arn', v) },
  actionAfterCompletion: { column: 'action_after_completion', decode: (v) => oneOf(AFTER_COMPLETION_ACTIONS, 'action_after_completion', v) },
  pauseAfterFailures: { column: 'pause_after_failures', decode: rawIntOrNull },
  consecutiveFailures: { column: 'consecutive_failures', decode: (v) => Number(v) },
  enabled: { column: 'enabled', decode: rawBoolean },
  pausedByType: { column: 'paused_by_type', decode: (v) => (v === null || v === undefined ? null : oneOf<PauserType>([...CREATOR_TYPES, 'system'], 'paused_by_type', v)) },
  pausedById: { column: 'paused_by_id', decode: (v) => textOrNull('paused_by_id', v) },
  pausedAt: { column: 'paused_at', decode: rawInstant },
  pauseNote: { column: 'pause_note', decode: (v) => textOrNull('pause_note', v) },
  pausedBulk: { column: 'paused_bulk', decode: rawBoolean },
  state: { column: 'state', decode: (v) => oneOf(SCHEDULE_STATES, 'state', v) },
  invocationTargetType: { column: 'invocation_target_type', decode: (v) => text('invocation_target_type', v) },
  invocationTarget: { column: 'invocation_target', decode: (v) => rawJson('schedules.invocation_target', v) },
  facadeData: { column: 'eventbridge', decode: (v) => rawJson('schedules.eventbridge', v) },
  nextFireAt: { column: 'next_fire_at', decode: rawInstant },
  nextScheduledFor: { column: 'next_scheduled_for', decode: rawInstant },
  createdByType: { column: 'created_by_type', decode: (v) => oneOf(CREATOR_TYPES, 'created_by_type', v) },
  createdById: { column: 'created_by_id', decode: (v) => text('created_by_id', v) },
  skippedOccurrences: { column: 'skipped_occurrences', decode: (v) => Number(v) },
  version: { column: 'version', decode: (v) => Number(v) },
  completionExpectSeconds: { column: 'completion_expect_seconds', decode: rawIntOrNull },
  overlapPolicy: { column: 'overlap_policy', decode: (v) => oneOf(OVERLAP_POLICIES, 'overlap_policy', v) },
  catchUpWindowSeconds: { column: 'catch_up_window_seconds', decode: rawIntOrNull },
  catchUpMode: { column: 'catch_up_mode', decode: (v) => (v === null || v === undefined ? null : oneOf(CATCH_UP_MODES, 'catch_up_mode', v)) },
  catchUpMaxBurst: { column: 'catch_up_max_burst', decode: rawIntOrNull },
  createdAt: { column: 'created_at', decode: (v) => instant('created_at', v) },
  updatedAt: { column: 'updated_at', decode: (v) => instant('updated_at', v) },
};

/** The SQL column list of `keys` (`id, revision_id, …`), for a statement that reads exactly those. */
export function scheduleColumns(keys: readonly (keyof ScheduleRecord)[]): string {
  return keys.map((k) => COLUMNS[k].column).join(', ');
}

/** The fields `keys` of a raw row that selected their columns (`scheduleColumns(keys)`). */
export function pickScheduleRecord<K extends keyof ScheduleRecord>(r: Record<string, unknown>, keys: readonly K[]): Pick<ScheduleRecord, K> {
  return decoderOf(keys, 'named')(r) as Pick<ScheduleRecord, K>;
}

/**
 * The fields `keys` of a row read as an array of values (a driver's array row mode: no object per
 * row), whose SELECT begins with `scheduleColumns(keys)`: value i is the column of `keys[i]`.
 */
export function pickScheduleRecordOf<K extends keyof ScheduleRecord>(values: readonly unknown[], keys: readonly K[]): Pick<ScheduleRecord, K> {
  return decoderOf(keys, 'positional')(values) as Pick<ScheduleRecord, K>;
}

type Decoder = (r: Readonly<Record<string, unknown>> | readonly unknown[]) => unknown;
/** Each key list's decoders, built once (the fire path decodes every claimed row through the same list). */
const decoders = { named: new WeakMap<readonly (keyof ScheduleRecord)[], Decoder>(), positional: new WeakMap<readonly (keyof ScheduleRecord)[], Decoder>() };
/**
 * The decoder of `keys`: ONE object literal per row, its fields in `keys`' order, each column read by
 * its name (`named`) or its position (`positional`). Built from COLUMNS (keys and column names are
 * this file's constants, never input), so a decoded row always has the same shape and every read is
 * a constant load; a generic loop of keyed stores cost ~4 µs a claimed row of 32 columns
 * (docs/performance.md).
 */
function decoderOf(keys: readonly (keyof ScheduleRecord)[], by: 'named' | 'positional'): Decoder {
  let decode = decoders[by].get(keys);
  if (!decode) {
    const fields = keys.map((key, i) => `${key}: d[${i}](r[${by === 'named' ? JSON.stringify(COLUMNS[key].column) : i}])`);
    const build = new Function('d', `return (r) => ({ ${fields.join(', ')} });`) as (d: ((v: unknown) => unknown)[]) => Decoder;
    decoders[by].set(keys, (decode = build(keys.map((key) => COLUMNS[key].decode as (v: unknown) => unknown))));
  }
  return decode;
}

const ALL_KEYS = Object.keys(COLUMNS) as (keyof ScheduleRecord)[];

/** Every field of `ScheduleRecord`, one per column of `schedules` (the codec's order). */
export const SCHEDULE_RECORD_KEYS: readonly (keyof ScheduleRecord)[] = ALL_KEYS;

/**
 * A raw SQL row of every column (`SELECT *`) as the domain's record. Throws UndecodableScheduleError
 * (naming the row and the column) when a column holds what it cannot.
 */
export function toScheduleRecord(r: Record<string, unknown>): ScheduleRecord {
  try {
    return pickScheduleRecord(r, ALL_KEYS);
  } catch (e) {
    throw undecodable(r.id, e);
  }
}

/** The columns Prisma's model API types as plain text that the record narrows. */
type EnumKeys = 'repeat' | 'actionAfterCompletion' | 'pausedByType' | 'state' | 'createdByType' | 'overlapPolicy' | 'catchUpMode';

/**
 * A row as a reader may hold it (a parsed record, or Prisma's model row whose enum columns are plain
 * text; with or without its revision).
 */
export type ScheduleRowLike = Omit<ScheduleRecord, 'revisionId' | EnumKeys> & { [K in EnumKeys]: string | (K extends 'pausedByType' | 'catchUpMode' ? null : never) } & { revisionId?: string };

/**
 * A row of Prisma's model API (or a record already parsed) as the domain's record: its enum columns
 * narrowed to their vocabularies; the rest is typed by Prisma already. Throws UndecodableScheduleError
 * naming the row and a column that holds what it cannot.
 */
export function scheduleRecordOf<R extends ScheduleRowLike>(row: R): Omit<R, EnumKeys> & Pick<ScheduleRecord, EnumKeys> {
  try {
    return narrowEnums(row);
  } catch (e) {
    throw undecodable(row.id, e);
  }
}

function narrowEnums<R extends ScheduleRowLike>(row: R): Omit<R, EnumKeys> & Pick<ScheduleRecord, EnumKeys> {
  return {
    ...row,
    repeat: COLUMNS.repeat.decode(row.repeat),
    actionAfterCompletion: COLUMNS.actionAfterCompletion.decode(row.actionAfterCompletion),
    pausedByType: COLUMNS.pausedByType.decode(row.pausedByType),
    state: COLUMNS.state.decode(row.state),
    createdByType: COLUMNS.createdByType.decode(row.createdByType),
    overlapPolicy: COLUMNS.overlapPolicy.decode(row.overlapPolicy),
    catchUpMode: COLUMNS.catchUpMode.decode(row.catchUpMode),
  };
}

/**
 * A `schedules` row the row codec cannot read (a column holding what no save writes: text that is
 * not JSON, an unknown enum value…). `scheduleId` names the row; for a claimed row `scheduledFor` is
 * the occurrence claimed (its next_fire_at, or a due retry's `scheduled_for` when `retry`), null when
 * that cannot be read either or the row was not claimed; `cause` is the codec's error. The fire engine
 * pauses such a schedule rather than let it fail every batch it is claimed in (decision 416); the
 * product's reads name it (lib/schedules `unreadableScheduleError`, decision 425).
 */
export class UndecodableScheduleError extends Error {
  constructor(
    readonly scheduleId: string,
    readonly scheduledFor: Date | null,
    readonly cause: Error,
    /** Claimed through a due pending attempt (claim-retries.ts), not as the schedule's next occurrence. */
    readonly retry = false,
  ) {
    super(`schedule ${scheduleId} cannot be read: ${cause.message}`);
    this.name = 'UndecodableScheduleError';
  }
}

/**
 * UndecodableScheduleError for the row whose raw `id` column is `id`, `thrown` being the codec's
 * error. `claimedFor` is the raw column of the occurrence claimed (next_fire_at, or a due retry's
 * scheduled_for when `retry`); when absent or not an instant, `scheduledFor` is null.
 */
export function undecodable(id: unknown, thrown: unknown, claimedFor?: unknown, retry = false): UndecodableScheduleError {
  const at = rawInstant(claimedFor);
  return new UndecodableScheduleError(String(id), at && !Number.isNaN(at.getTime()) ? at : null, toError(thrown), retry);
}
