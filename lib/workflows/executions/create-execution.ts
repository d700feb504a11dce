import { countRecentExecutionsBySession, type Prisma, type Tx } from '../../db';
import { type Actor, readableBy } from '../../auth';
import type { Limits } from '../../config';
import { DomainError } from '../../errors';
import { newId } from '../../ids';
import type { ExecutionJson } from '../contract';
import { requireDraft, requireRevisionAccess } from '../guards';
import { executionJson } from '../serialize';

/** The limit name of SPEC §9, as recorded in a `limit_exceeded` run result (SPEC §8.1). */
export const EXECUTIONS_LIMIT_NAME = 'workflow.executions_per_session_per_minute';

/** Length of the rolling window of the per-session limit, in milliseconds. */
export const EXECUTIONS_LIMIT_WINDOW_MS = 60_000;

/**
 * The SPEC §9 limit the catalog enforces, passed in by its caller (the worker its `Limits`, the API
 * and the web app `loadConfig().limits`): the catalog never reads the configuration itself.
 */
export type ExecutionLimits = Pick<Limits, 'executionsPerSessionPerMinute'>;

export interface CreateExecutionOptions {
  /** Who creates it: recorded as `created_by`; needs `write` on the revision's blob. */
  actor: Actor;
  /** The draft workflow revision the execution runs in. */
  revisionId: string;
  /** An open session of `revisionId` (resolved id). */
  sessionId: string;
  /** The definition to run (resolved id): in `revisionId`, or in any workflow blob `actor` can read. */
  definitionId: string;
  /** `input_data` as validated by the contract (SPEC §6): an array of `{alias, value}`. */
  inputData: unknown;
  /** ≤ 256 chars; omitted from the execution when absent. */
  description?: string;
  /** Set when a fire creates the execution (SPEC §8). */
  scheduleId?: string;
  runId?: string;
  /** The creation instant; also the end of the limit window. */
  now: Date;
}

/** What `checkExecution` checked: the revision (a draft) and the open session. */
export interface CheckedExecution {
  revision: { id: string; blobId: string };
  session: { id: string; alias: string | null };
}

/**
 * Every check of `create_execution` except the limit, in this order: access, draft revision, session
 * in the revision and open, definition reachable. Reads only; shared by `createExecution` and the
 * fire path's batch `createExecutions`, so both refuse exactly alike.
 * @throws the DomainErrors listed on `createExecution`, except `limit_exceeded`.
 */
export async function checkExecution(
  db: Tx,
  opts: Pick<CreateExecutionOptions, 'actor' | 'revisionId' | 'sessionId' | 'definitionId'>,
): Promise<CheckedExecution> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'write', blobType: 'workflow' });
  requireDraft(revision);
  const session = await db.workflowSession.findFirst({ where: { id: opts.sessionId, revisionId: revision.id } });
  if (!session) throw new DomainError('session_not_found', 'session not found', { path: 'target.session' });
  if (session.state !== 'open') {
    throw new DomainError('session_not_open', `session ${session.alias ?? session.id} is ${session.state}`, {
      path: 'target.session',
    });
  }
  // Reachable: in the execution's own blob, or in a blob the actor can read (scoped in the query, so
  // a definition it cannot read is not found, SPEC §2).
  const definition = await db.definition.findFirst({
    where: { id: opts.definitionId, revision: { OR: [{ blobId: revision.blobId }, { blob: readableBy(opts.actor) }] } },
    select: { id: true },
  });
  if (!definition) {
    throw new DomainError('definition_not_found', 'workflow definition not found', { path: 'workflow.definition' });
  }
  return { revision: { id: revision.id, blobId: revision.blobId }, session: { id: session.id, alias: session.alias } };
}

/** The limit window of `now`: (now − 60 s, now], as `[after, upTo]` (an execution exactly 60 s old no longer counts). */
export function limitWindow(now: Date): [Date, Date] {
  return [new Date(now.getTime() - EXECUTIONS_LIMIT_WINDOW_MS), now];
}

/** Executions of `sessionId` created in the limit window of `now` (`limitWindow`). */
export async function countRecentExecutions(db: Tx, sessionId: string, now: Date): Promise<number> {
  return (await countRecentExecutionsBySession(db, [sessionId], ...limitWindow(now))).get(sessionId) ?? 0;
}

/** The `429 limit_exceeded` refusal of SPEC §9 `workflow.executions_per_session_per_minute`. */
export function executionsLimitError(limit: number, recent: number, session: { id: string; alias: string | null }): DomainError {
  return new DomainError(
    'limit_exceeded',
    `${EXECUTIONS_LIMIT_NAME} (${limit}) reached: session ${session.alias ?? session.id} already has ${recent} executions in the last minute`,
  );
}

/**
 * Create one execution (SPEC §1, §3.2 `create_execution`) from resolved ids, checking everything in
 * this order: access, draft revision, session in the revision and open, definition reachable, limit.
 * The limit (SPEC §9 `workflow.executions_per_session_per_minute`, `limits.executionsPerSessionPerMinute`)
 * counts the session's executions created in the window (now − 60 s, now]; at or over it the call is refused.
 * Every check runs before the one write, so a refusal inside a caller's transaction writes nothing.
 * @throws `404 not_found` (revision missing/unreadable), `403 forbidden` (read only),
 *   `409 revision_not_writable` (not a draft), `404 session_not_found`, `409 session_not_open`,
 *   `404 definition_not_found` (missing, or in a blob the actor cannot read), `429 limit_exceeded`.
 */
export async function createExecution(db: Tx, opts: CreateExecutionOptions, limits: ExecutionLimits): Promise<ExecutionJson> {
  const { revision, session } = await checkExecution(db, opts);
  const limit = limits.executionsPerSessionPerMinute;
  const recent = await countRecentExecutions(db, session.id, opts.now);
  if (recent >= limit) throw executionsLimitError(limit, recent, session);
  const row = await db.execution.create({
    data: {
      id: newId(),
      revisionId: revision.id,
      sessionId: session.id,
      definitionId: opts.definitionId,
      description: opts.description ?? null,
      inputData: opts.inputData as Prisma.InputJsonValue,
      createdByType: opts.actor.type,
      createdById: opts.actor.id,
      scheduleId: opts.scheduleId ?? null,
      runId: opts.runId ?? null,
      createdAt: opts.now,
    },
  });
  return executionJson(row);
}
