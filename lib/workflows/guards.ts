/**
 * Internal guards shared by the catalog's verbs: access to a revision (SPEC §2, scoped in its query),
 * the draft rule for writes (SPEC §1), the alias grammar (SPEC §4) and unique-key races. Not part of
 * the public entry.
 */
import type { Blob, Prisma, Revision, Tx } from '../db';
import { type Actor, readableBy, writableBy } from '../auth';
import { DomainError } from '../errors';
import { aliasProblem } from '../ids';
import type { BlobType } from './contract';

export interface RevisionAccess {
  revision: Revision;
  blob: Blob;
}

/**
 * Load revision `revisionId` with its blob, scoped to the blobs `actor` holds `need` on (`writableBy` /
 * `readableBy`, lib/auth): the access check is the query's WHERE clause. An authorized call is one query;
 * a refused write asks once more, readably, to tell `403` from `404`.
 * @throws `404 not_found` when the revision does not exist, its blob is not of `blobType` (when given),
 *   or the actor cannot read the blob (refusal looks like absence, SPEC §2).
 * @throws `403 forbidden` when the actor can read the blob but `need` is `write` and it holds only `read`.
 */
export async function requireRevisionAccess(
  db: Tx,
  opts: { actor: Actor; revisionId: string; need: 'read' | 'write'; blobType?: BlobType },
): Promise<RevisionAccess> {
  const find = (scope: Prisma.BlobWhereInput) =>
    db.revision.findFirst({
      where: { id: opts.revisionId, blob: opts.blobType ? { AND: [{ type: opts.blobType }, scope] } : scope },
      include: { blob: true },
    });
  const revision = await find(opts.need === 'write' ? writableBy(opts.actor) : readableBy(opts.actor));
  if (!revision) {
    const readable = opts.need === 'write' ? await find(readableBy(opts.actor)) : null;
    if (!readable) throw new DomainError('not_found', 'revision not found');
    throw new DomainError('forbidden', `${opts.need} access to blob ${readable.blobId} is required`);
  }
  const { blob, ...rev } = revision;
  return { revision: rev, blob };
}

/**
 * Writes (sessions, definitions, executions) go only to a draft revision (SPEC §1).
 * @throws `409 revision_not_writable` for a committed or managed revision.
 */
export function requireDraft(revision: Pick<Revision, 'id' | 'state'>): void {
  if (revision.state !== 'draft') {
    throw new DomainError(
      'revision_not_writable',
      `revision ${revision.id} is ${revision.state}; only a draft revision accepts writes and runs executions`,
    );
  }
}

/**
 * Enforce the SPEC §4 alias grammar on an alias being set (create or rename), as sent (no trimming).
 * @throws `400 invalid_alias` with `path`.
 */
export function requireAliasGrammar(alias: string, path = 'alias'): void {
  const problem = aliasProblem(alias);
  if (problem) throw new DomainError('invalid_alias', problem, { path });
}

/**
 * True for a unique-constraint violation, the last guard of an alias race: Prisma's (P2002, a model
 * query), or the driver's own from a typed statement of lib/db/sql run on the transaction's connection
 * (better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE` / `SQLITE_CONSTRAINT_PRIMARYKEY`, PostgreSQL's SQLSTATE
 * `23505`; docs/decisions.md 405).
 */
export function isUniqueViolation(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return code === 'P2002' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Run a write whose unique key is an alias; a concurrent taker surfaces as `409 alias_taken`. */
export async function withAliasGuard<T>(alias: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (alias != null && isUniqueViolation(e)) {
      throw new DomainError('alias_taken', `alias "${alias}" is taken`, { path: 'alias', cause: e });
    }
    throw e;
  }
}
