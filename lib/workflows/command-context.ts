import type { Actor } from '../auth';
import type { Limits } from '../config';
import type { Db } from '../db';

/**
 * What every command (the scheduler's and the workflow engine's command tables) on `POST /api/v1/revisions/{revision_id}/data` receives (SPEC §3).
 * `revision` is already resolved and readable by `actor` (else the router answered 404 not_found), and
 * its blob's type matches the engine (else 400 unknown_command). `params` is the body without
 * `engine` and `command`: commands take their parameters at the top level of the body.
 */
export interface CommandContext {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string; orgId: string; state: string };
  params: Record<string, unknown>;
  /** SPEC §9 limits, parsed once at the edge (`loadConfig().limits`) and passed down. */
  limits: Limits;
  /** The request's instant (UTC). */
  now: Date;
}

/** A command returns the JSON object of its 200 answer, or throws a DomainError. */
export type CommandHandler = (ctx: CommandContext) => Promise<Record<string, unknown>>;
