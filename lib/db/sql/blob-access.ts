/**
 * The access scope of lib/auth/scope.ts (`blobsWith`) as SQL, for the product API's hot reads that run
 * on the driver (docs/decisions.md 385): a blob is reachable when the actor's org role (an org actor:
 * its own org's blobs; a user: its membership of the blob's org) or a grant to the actor is one of
 * `roles`. lib/auth decides which roles satisfy a need and applies the key's `roleCap` before calling
 * (an empty `roles` reaches nothing); this module only writes that rule as a WHERE clause.
 * lib/auth/__tests__/scope-sql.int.test.ts checks it against `blobsWith` on both dialects.
 */
import type { Tx } from '../client';
import type { Dialect } from '../dialect';
import { readRows } from './run-sql';
import { rawText, toScheduleRecord, type ScheduleRecord } from './schedule-record';

/** The actor of a scope: `created_by`'s shape (SPEC §5.1). */
export interface ScopeActor {
  type: 'user' | 'org';
  id: string;
}

/** A statement's texts and its parameters, in the order both texts bind them. */
interface Bound {
  sql: { sqlite: string; postgresql: string };
  params: string[];
}

/**
 * Build a statement's two texts from `write`, which calls `p(value)` for each parameter in text order
 * (SQLite `?`, PostgreSQL `$n`): both texts then bind the same array.
 */
function bind(write: (p: (value: string) => string) => string): Bound {
  const texts = {} as Record<Dialect, string>;
  let params: string[] = [];
  for (const dialect of ['sqlite', 'postgresql'] as const) {
    params = [];
    texts[dialect] = write((value) => {
      params.push(value);
      return dialect === 'sqlite' ? '?' : `$${params.length}`;
    });
  }
  return { sql: texts, params };
}

/** `blob` (an alias of `blobs` in the statement) is reachable by `actor` with one of `roles`. */
function reachable(blob: string, actor: ScopeActor, roles: readonly string[], p: (value: string) => string): string {
  if (roles.length === 0) return '1 = 0';
  const roleList = () => roles.map((r) => p(r)).join(', ');
  // An org acts with `admin` on its own org's blobs; a user with its membership role (scope.ts).
  const ofOrg =
    actor.type === 'org'
      ? `${blob}.org_id = ${p(actor.id)}`
      : `EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = ${p(actor.id)} AND m.org_id = ${blob}.org_id AND m.role IN (${roleList()}))`;
  const granted = `EXISTS (SELECT 1 FROM blob_grants g WHERE g.blob_id = ${blob}.id AND g.grantee_type = ${p(actor.type)} AND g.grantee_id = ${p(actor.id)} AND g.role IN (${roleList()}))`;
  return `(${ofOrg} OR ${granted})`;
}

/** A revision with its blob's org and type, as the command router needs it. */
export interface ScopedRevisionRecord {
  id: string;
  blobId: string;
  state: string;
  orgId: string;
  blobType: string;
}

/** Revision `revisionId` when its blob is reachable by `actor` with one of `roles`, else null (missing and unreachable alike). */
export async function findScopedRevision(db: Tx, revisionId: string, actor: ScopeActor, roles: readonly string[]): Promise<ScopedRevisionRecord | null> {
  const { sql, params } = bind(
    (p) => `SELECT r.id, r.blob_id, r.state, b.org_id, b.type FROM revisions r JOIN blobs b ON b.id = r.blob_id WHERE r.id = ${p(revisionId)} AND ${reachable('b', actor, roles, p)}`,
  );
  const [r] = await readRows(db, sql, ...params);
  if (!r) return null;
  return {
    id: rawText('revisions.id', r.id),
    blobId: rawText('revisions.blob_id', r.blob_id),
    state: rawText('revisions.state', r.state),
    orgId: rawText('blobs.org_id', r.org_id),
    blobType: rawText('blobs.type', r.type),
  };
}

/** Which of `blobIds` exist and are reachable by `actor` with one of `roles` (one statement). */
export async function reachableBlobs(db: Tx, blobIds: readonly string[], actor: ScopeActor, roles: readonly string[]): Promise<Set<string>> {
  if (blobIds.length === 0) return new Set();
  const { sql, params } = bind((p) => `SELECT b.id FROM blobs b WHERE b.id IN (${blobIds.map((id) => p(id)).join(', ')}) AND ${reachable('b', actor, roles, p)}`);
  return new Set((await readRows(db, sql, ...params)).map((r) => rawText('blobs.id', r.id)));
}

/** True when blob `blobId` exists and is reachable by `actor` with one of `roles`. */
export async function blobReachable(db: Tx, blobId: string, actor: ScopeActor, roles: readonly string[]): Promise<boolean> {
  const { sql, params } = bind((p) => `SELECT 1 AS ok FROM blobs b WHERE b.id = ${p(blobId)} AND ${reachable('b', actor, roles, p)}`);
  return (await readRows(db, sql, ...params)).length > 0;
}

/**
 * `get_schedule`'s read in one statement: the schedule of revision `revisionId` whose id (or, `by:
 * 'alias'`, alias) is `key`, when that revision belongs to a scheduler blob reachable by `actor` with
 * one of `roles`. Null when the revision or the schedule is missing, the blob is not a scheduler or
 * is unreachable: the caller tells these apart on that rare path, with the refusals it always had
 * (decisions 385, 439). The router calls it before it has resolved the revision, so the revision's own
 * check (its blob reachable, of type `scheduler`) is in this statement, not assumed.
 */
export async function findScheduleIfReachable(
  db: Tx,
  revisionId: string,
  key: string,
  by: 'id' | 'alias',
  actor: ScopeActor,
  roles: readonly string[],
): Promise<ScheduleRecord | null> {
  const { sql, params } = bind(
    (p) =>
      `SELECT s.* FROM schedules s JOIN revisions r ON r.id = s.revision_id JOIN blobs b ON b.id = r.blob_id WHERE s.${by === 'id' ? 'id' : 'alias'} = ${p(key)} AND s.revision_id = ${p(revisionId)} AND b.type = 'scheduler' AND ${reachable('b', actor, roles, p)}`,
  );
  const [row] = await readRows(db, sql, ...params);
  return row ? toScheduleRecord(row) : null;
}
