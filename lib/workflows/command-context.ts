import type { z } from 'zod';
import type { Actor } from '../auth';
import type { HttpAllowList, Limits } from '../config';
import type { Db } from '../db';
import type { CommandContract } from './contract';

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
  /** Webhook destinations allowed although private (SCHEDULER_HTTP_ALLOWED_HOSTS, SPEC §13.1); absent: none. */
  httpAllowList?: HttpAllowList;
  /** The request's instant (UTC). */
  now: Date;
  /** True when the command's direct read (`DirectRead`) ran for this request and answered null: the handler need not repeat its lookup. */
  directReadMissed?: boolean;
}

/** A command returns the JSON object of its 200 answer, or throws a DomainError. */
export type CommandHandler = (ctx: CommandContext) => Promise<Record<string, unknown>>;

/**
 * A read that may answer before the router resolves the revision (docs/decisions.md 439): the command's
 * 200 answer when the revision `revisionId` (the path segment as sent), everything the command reads
 * and `actor`'s access are all there, else null, and the router takes the command's usual path
 * (revision, then handler), which gives every refusal in its order. It never refuses on its own: a
 * parameter the handler would refuse is null here too. It may throw what the handler would for data
 * it cannot read (a `500` naming an unreadable row, decision 425).
 */
export type DirectRead = (ctx: { db: Db; actor: Actor; revisionId: string; params: Record<string, unknown> }) => Promise<Record<string, unknown> | null>;

/**
 * A command table typed against its contract (`SCHEDULER_COMMANDS`, `WORKFLOW_COMMANDS`): one handler
 * per contract entry, each answering its contract's answer type, so neither can exist without the other.
 */
export type CommandTable<C extends Record<string, CommandContract>> = {
  [K in keyof C]: (ctx: CommandContext) => Promise<z.output<C[K]['answer']>>;
};
