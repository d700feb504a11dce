import { raiseMissedAtSave } from '../alerts/raise';
import type { Actor } from '../../auth';
import { countSchedules, inTransaction, insertSchedule, type Db, type ScheduleRecord, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { aliasProblem, newId } from '../../ids';
import { isUniqueViolation } from '../../workflows';
import { requireSchedulerRole } from '../access';
import type { Schedule, ScheduleCreateInput, ScheduleDryRunAnswer } from '../contract';
import { checkSchedule, checkTargetBeforeSave, parseScheduleInput, type CheckedSchedule, type DestinationOptions, type SaveRequest } from './save-schedule';
import { toSchedule } from '../read/serialize';
import { aliasTaken, findTokenHolder } from '../read/find-schedule';
import { recordActivity } from '../activity';
import { findClientToken, rememberClientToken, requestHash } from './client-tokens';
import { SCHEDULE_CLIENT_TOKEN_TTL_MS } from '../contract';

export interface CreateScheduleOptions extends DestinationOptions, SaveRequest {
  db: Db;
  /** The scheduler blob's managed revision. */
  revision: { id: string; blobId: string };
  /** The request body's schedule fields (unparsed), with the target of any type (SPEC §6, §13). */
  input: unknown;
  /**
   * The schedule's name in its group (SPEC §14), unique in the scheduler. Default: the alias, else the
   * new id. The EventBridge API passes its `Name`.
   */
  name?: string;
  /** Also take `name` as the alias when it fits the alias grammar (SPEC §4) and no schedule holds it. */
  aliasFromName?: boolean;
  /** What a facade stores beside the product's fields (its facade data, SPEC §14), opaque here. */
  facadeData?: object;
  /**
   * SPEC §15 `client_token` (≤ 64 chars): a create with a token the same caller used in this scheduler
   * within 24 h answers that first create's schedule and creates nothing when `input` is the same, and
   * is `409 client_token_reused` when it differs.
   */
  clientToken?: string;
}

type ParsedInput = ScheduleCreateInput;

/** What a create writes besides the checked fields: its name and alias (SPEC §14). */
interface CheckedCreate extends CheckedSchedule {
  name: string;
  alias: string | null;
}

/**
 * `create_schedule` (SPEC §3.1, §5): validate, check the target with the saver's standing, and store
 * the schedule with its first `next_fire_at`. `created_by` is the actor. Nothing is written on refusal.
 * Throws DomainError with the codes of SPEC §5.2 (incl. `409 schedule_limit_reached`, `409 alias_taken`;
 * `400 invalid_invocation_target` for a webhook to a refused address, SPEC §13.1),
 * and `409 name_taken` when `name` is already used in the scheduler (SPEC §14), `409 client_token_reused`.
 * SPEC §15: the create is recorded in the activity log; with `clientToken`, a retry answers the first result.
 */
export async function createSchedule(opts: CreateScheduleOptions): Promise<Schedule> {
  const { db, actor, revision, now } = opts;
  const input = parse(opts);
  await checkTargetBeforeSave(input, opts, opts);
  const id = newId();
  const token = opts.clientToken
    ? { key: `create_schedule:${revision.id}:${actor.type}:${actor.id}:${opts.clientToken}`, requestHash: requestHash(opts.input) }
    : null;
  /** The first create's answer for this token, or null when the token is new (or expired). */
  const replay = async (tx: Tx): Promise<Schedule | null> => {
    const seen = token ? await findClientToken(tx, token.key, now) : null;
    if (!seen) return null;
    if (seen.requestHash !== token!.requestHash) {
      throw new DomainError('client_token_reused', `client_token "${opts.clientToken}" was already used for a create with another body; send a new token for a new schedule`, { path: 'client_token' });
    }
    return seen.response as Schedule;
  };
  try {
    return await inTransaction(db, async (tx) => {
      // Exactly once per token: read under the write lock (SQLite's BEGIN IMMEDIATE); on PostgreSQL a
      // twin that commits first makes rememberClientToken below violate the key and roll this back.
      const first = await replay(tx);
      if (first) return first;
      const checked = await checkCreate(tx, opts, input, id, false);
      // One typed INSERT … RETURNING on the transaction's connection, every column given (docs/decisions.md 405).
      const row = await insertSchedule(tx, newScheduleRecord(opts, input, id, checked));
      const schedule = toSchedule(row);
      // SPEC §15: the entry and the token commit with the schedule, or none of them does.
      await recordActivity(tx, { revisionId: revision.id, schedule: row, action: 'create', by: actor, at: now });
      // SPEC §17 `missed`: an occurrence saved already beyond the catch-up window, raised with the save.
      if (checked.missedAt) await raiseMissedAtSave(tx, row.id, checked.missedAt, now);
      if (token) await rememberClientToken(tx, { ...token, response: schedule, now, ttlMs: SCHEDULE_CLIENT_TOKEN_TTL_MS });
      // Last: a facade's own write commits with the schedule or not at all.
      await opts.alsoInTransaction?.(tx);
      return schedule;
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      // A concurrent twin with the same token won (its token, alias or name came first): its answer.
      const twin = token ? await replay(db) : null;
      if (twin) return twin;
      // Last guard of a race: UNIQUE (revision_id, name) and (revision_id, alias).
      throw nameTaken(opts.name ?? input.alias ?? id, opts.name === undefined, e);
    }
    throw e;
  }
}

/**
 * `create_schedule` with `dry_run: true` (docs/decisions.md): every check `createSchedule` makes, in
 * the same order and with the same errors, and no write. Answers the schedule as it would be stored,
 * under a fresh `id` that the real create does not reuse. A target session alias that does not exist
 * yet in a draft revision the saver can write is named in `missing_session` instead of refused.
 */
export async function dryRunCreateSchedule(opts: CreateScheduleOptions): Promise<ScheduleDryRunAnswer> {
  const { db } = opts;
  const input = parse(opts);
  await checkTargetBeforeSave(input, opts, opts);
  return inTransaction(db, async (tx) => {
    const id = newId();
    const checked = await checkCreate(tx, opts, input, id, true);
    const { missingSession } = checked;
    const row = newScheduleRecord(opts, input, id, checked);
    return {
      dry_run: true,
      schedule: toSchedule(row),
      ...(missingSession ? { missing_session: { revision_id: missingSession.revisionId, alias: missingSession.alias } } : {}),
    };
  });
}

/**
 * The row a create stores (and its dry run answers): the checked fields, the name and alias, the
 * creator, and every default of the `schedules` model (prisma/schema.prisma: `consecutiveFailures` 0,
 * `state` active, `skippedOccurrences` 0, `version` 1, `createdAt` = `updatedAt` = `now`, no facade data).
 */
function newScheduleRecord(opts: CreateScheduleOptions, input: ParsedInput, id: string, checked: CheckedCreate): ScheduleRecord {
  const { actor, revision, now } = opts;
  const { fields, name, alias } = checked;
  return {
    id,
    revisionId: revision.id,
    ...fields,
    alias,
    name,
    ...pausedAtCreate(fields.enabled, input, actor, now),
    consecutiveFailures: 0,
    state: fields.state ?? 'active',
    facadeData: opts.facadeData ?? null,
    createdByType: actor.type,
    createdById: actor.id,
    skippedOccurrences: fields.skippedOccurrences ?? 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The EventBridge API stores an `aws` target of any service (SPEC §14); the product's saves refuse other services. */
function parse(opts: CreateScheduleOptions): ParsedInput {
  return parseScheduleInput(opts.input, opts.rules?.storedTargets ? 'stored' : 'save');
}

/**
 * The checks of a create, in order: write access, the schedule limit, the alias, the name (SPEC §14),
 * then `checkSchedule`.
 */
async function checkCreate(tx: Tx, opts: CreateScheduleOptions, input: ParsedInput, scheduleId: string, allowMissingSession: boolean): Promise<CheckedCreate> {
  const { actor, revision, limits } = opts;
  await requireSchedulerRole(tx, actor, revision.blobId, 'write');
  const count = await countSchedules(tx, revision.id);
  if (count >= limits.schedulesPerRevision) {
    throw new DomainError('schedule_limit_reached', `this scheduler already holds ${count} schedules, the most allowed (scheduler.schedules_per_revision = ${limits.schedulesPerRevision})`);
  }
  // One token, one schedule (decision 150): the alias and the name are each no other schedule's alias or name.
  const aliasHolder = input.alias != null ? await findTokenHolder(tx, revision.id, input.alias) : null;
  if (aliasHolder) throw aliasTaken(input.alias!, aliasHolder);
  const name = opts.name ?? input.alias ?? scheduleId;
  if (name !== input.alias && (await findTokenHolder(tx, revision.id, name))) throw nameTaken(name, false);
  // The name is free as an alias too (checked just above), so it only has to fit the alias grammar.
  const alias = input.alias ?? (opts.aliasFromName && !aliasProblem(name) ? name : null);
  if (input.paused !== undefined && input.enabled !== false) {
    throw new DomainError('invalid_request_body', 'paused.note can be set only on a disabled schedule (send enabled: false with it)', { path: 'paused.note' });
  }
  const checked = await checkSchedule(tx, opts, { input, scheduleId, stored: null, checkTarget: true, checkDeadLetter: true, blobId: opts.revision.blobId, allowMissingSession });
  return { ...checked, name, alias };
}

/**
 * A taken name: `alias_taken` when the name came from the alias (product API), else `name_taken`
 * (the EventBridge `Name`: another schedule holds it as its name or its alias).
 */
function nameTaken(name: string, fromAlias: boolean, cause?: unknown): DomainError {
  return fromAlias
    ? aliasTaken(name, { alias: null }, cause)
    : new DomainError('name_taken', `a schedule named "${name}" already exists in this scheduler`, { path: 'name', cause });
}

/** SPEC §12.5: a schedule created disabled is paused by its creator, with the note sent. */
function pausedAtCreate(enabled: boolean, input: ParsedInput, actor: Actor, now: Date) {
  if (enabled) return { pausedByType: null, pausedById: null, pausedAt: null, pauseNote: null, pausedBulk: false };
  return { pausedByType: actor.type, pausedById: actor.id, pausedAt: now, pauseNote: input.paused?.note ?? null, pausedBulk: false };
}
