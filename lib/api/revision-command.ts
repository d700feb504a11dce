/**
 * `POST /api/v1/revisions/{revision_id}/data` (SPEC §3): route `{engine, command, ...params}` to one
 * command handler. Order of refusals: malformed JSON → 400 invalid_request_body; unknown engine →
 * 400 unknown_command; revision missing or unreadable → 404 not_found (the same answer for both);
 * blob type not the engine's → 400 unknown_command; unknown command → 400 unknown_command. A command
 * with a direct read (`get_schedule`, decision 439) is asked first and answers only when nothing is
 * refused; otherwise the request takes this order.
 */
import type { Actor } from '../auth';
import { DomainError } from '../errors';
import { schedulerCommands, schedulerDirectReads } from '../schedules';
import { getReadableRevision, workflowCommands, type CommandContext, type CommandHandler, type DirectRead } from '../workflows';
import { readJsonBody } from './body';
import { json } from './http';
import { runtime, type Runtime } from './runtime';

const ENGINES: Record<string, { blobType: 'scheduler' | 'workflow'; commands: Record<string, CommandHandler>; direct?: Record<string, DirectRead | undefined> }> = {
  scheduler_blobhub: { blobType: 'scheduler', commands: schedulerCommands, direct: schedulerDirectReads },
  workflow_blobhub: { blobType: 'workflow', commands: workflowCommands },
};

/**
 * Read the JSON body as an object, or throw `400 invalid_request_body` (also for invalid UTF-8, nesting
 * deeper than 64 and lone surrogates, with a path) or `413 request_too_large` (over 1 MiB): see body.ts.
 */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_request_body', 'the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Run one command for `actor` on revision `revisionId` and answer with its JSON. `rt`: the process's client and limits unless given (tests). */
export async function handleRevisionCommand(
  req: Request,
  actor: Actor,
  revisionId: string,
  rt: Pick<Runtime, 'db' | 'limits'> & Partial<Pick<Runtime, 'httpAllowList' | 'delivery' | 'engine'>> = runtime(),
): Promise<Response> {
  const body = await readJsonObject(req);
  const { engine, command, ...params } = body;
  const spec = typeof engine === 'string' ? ENGINES[engine] : undefined;
  if (!spec) throw new DomainError('unknown_command', `unknown engine ${JSON.stringify(engine)?.slice(0, 80)}; use "scheduler_blobhub" or "workflow_blobhub"`, { path: 'engine' });
  const { db, limits, httpAllowList, delivery, engine: fireEngine } = rt;
  // A hot read answers in one statement that checks the revision itself (decision 439); on any miss
  // (revision, access, the command's own lookup or parameters) the path below refuses in its order.
  const direct = typeof command === 'string' && spec.direct && Object.hasOwn(spec.direct, command) ? spec.direct[command] : undefined;
  const answer = direct ? await direct({ db, actor, revisionId, params }) : null;
  if (answer) return json(answer);
  // Missing and unreadable answer alike: 404 not_found (SPEC §2).
  const revision = await getReadableRevision(db, { actor, revisionId });
  if (revision.blobType !== spec.blobType) {
    throw new DomainError('unknown_command', `engine "${engine}" does not apply to a ${revision.blobType} revision`, { path: 'engine' });
  }
  const handler = typeof command === 'string' && Object.hasOwn(spec.commands, command) ? spec.commands[command] : undefined;
  if (!handler) {
    const message = command === undefined ? `the body names no command for engine "${engine}"` : `unknown command ${JSON.stringify(command)?.slice(0, 80)} for engine "${engine}"`;
    throw new DomainError('unknown_command', message, { path: 'command' });
  }
  const result = await handler({
    db,
    actor,
    revision: { id: revision.id, blobId: revision.blobId, orgId: revision.orgId, state: revision.state },
    params,
    limits,
    httpAllowList,
    delivery,
    engine: fireEngine,
    now: new Date(),
    directReadMissed: direct !== undefined,
  } as CommandContext);
  return json(result);
}
