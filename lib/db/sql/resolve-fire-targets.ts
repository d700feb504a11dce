/**
 * The fire path's set-based catalog read (SPEC §6.1, §6.2, §8 step 1): for every distinct target and
 * bare workflow reference of a batch, ONE statement finds the blob, the revision (the blob's default
 * for a following target, the pinned id otherwise), the session and the definition, with their
 * states. The caller (lib/workflows/gateway.ts `resolveForFires`) decides access and states from the
 * row; a key with no row, or with anything but the plain success, is decided by the general
 * resolution, which names the failure exactly.
 *
 * Every lookup is by an index: orgs(id) / orgs(alias), blobs(id) / blobs(org_id, alias),
 * revisions(id), workflow_sessions(id) / (revision_id, alias), definitions(id) / (revision_id, alias).
 * Each reference comes as two fields, an id and an alias, at most one of them set (the caller tells
 * them apart by shape, SPEC §4), so a lookup is `id = ? OR alias = ?` with the other side NULL.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { queryRows } from './run-sql';
import { sqlInstant } from './instant';

/** One key of the batch; references already in lookup form (trimmed, lowercased). */
export interface FireTargetKey {
  /** The caller's key, returned on the row. */
  k: string;
  orgId: string | null;
  orgAlias: string | null;
  blobId: string | null;
  blobAlias: string | null;
  /** A pinned target's revision id; null for a following target (the blob's default revision). */
  revisionId: string | null;
  sessionId: string | null;
  sessionAlias: string | null;
  definitionId: string | null;
  definitionAlias: string | null;
}

/** What the statement found for a key (every lookup succeeded); states as stored. */
export interface FireTargetRow {
  k: string;
  blobId: string;
  orgId: string;
  blobType: string;
  revisionId: string;
  revisionState: string;
  sessionId: string;
  sessionState: string;
  sessionAlias: string | null;
  definitionId: string;
}

const SELECT = `
  kb AS (
    SELECT ko.*, (SELECT b.id FROM blobs b
      -- findBlobByRef: a blob id must belong to the org when one is named; an alias needs the org.
      WHERE (b.id = ko.blob_id AND ((ko.org_id IS NULL AND ko.org_alias IS NULL) OR b.org_id = ko.org))
         OR (b.org_id = ko.org AND b.alias = ko.blob_alias)) AS blob
    FROM ko
  )
  SELECT kb.k AS k, b.id AS blob_id, b.org_id AS org_id, b.type AS blob_type, rv.id AS revision_id, rv.state AS revision_state,
    ss.id AS session_id, ss.state AS session_state, ss.alias AS session_alias, d.id AS definition_id
  FROM kb
  JOIN blobs b ON b.id = kb.blob
  JOIN revisions rv ON rv.id = COALESCE(kb.revision_id, b.default_revision_id) AND rv.blob_id = b.id
  JOIN workflow_sessions ss ON ss.revision_id = rv.id AND (ss.id = kb.session_id OR ss.alias = kb.session_alias)
  JOIN definitions d ON d.revision_id = rv.id AND (d.id = kb.definition_id OR d.alias = kb.definition_alias)`;

const ORG = `(SELECT o.id FROM orgs o WHERE o.id = k.org_id OR o.alias = k.org_alias)`;

/** Param: JSON array of keys (snake_case). One row per key whose every lookup found a row. */
export const RESOLVE_FIRE_TARGETS_SQL = {
  sqlite: `WITH k AS (
      SELECT value ->> 'k' AS k, value ->> 'org_id' AS org_id, value ->> 'org_alias' AS org_alias, value ->> 'blob_id' AS blob_id,
        value ->> 'blob_alias' AS blob_alias, value ->> 'revision_id' AS revision_id, value ->> 'session_id' AS session_id,
        value ->> 'session_alias' AS session_alias, value ->> 'definition_id' AS definition_id, value ->> 'definition_alias' AS definition_alias
      FROM json_each(?)
    ),
    ko AS (SELECT k.*, ${ORG} AS org FROM k),${SELECT}`,
  postgresql: `WITH k AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(k text, org_id text, org_alias text, blob_id text, blob_alias text,
        revision_id text, session_id text, session_alias text, definition_id text, definition_alias text)
    ),
    ko AS (SELECT k.*, ${ORG} AS org FROM k),${SELECT}`,
} as const;

/** Look up every key in one statement inside the caller's transaction. */
export async function findFireTargets(tx: Tx, keys: FireTargetKey[]): Promise<FireTargetRow[]> {
  if (keys.length === 0) return [];
  const doc = keys.map((x) => ({
    k: x.k,
    org_id: x.orgId,
    org_alias: x.orgAlias,
    blob_id: x.blobId,
    blob_alias: x.blobAlias,
    revision_id: x.revisionId,
    session_id: x.sessionId,
    session_alias: x.sessionAlias,
    definition_id: x.definitionId,
    definition_alias: x.definitionAlias,
  }));
  const rows = await queryRows<Record<string, string>>(tx, RESOLVE_FIRE_TARGETS_SQL, JSON.stringify(doc));
  return rows.map((r) => ({
    k: r.k,
    blobId: r.blob_id,
    orgId: r.org_id,
    blobType: r.blob_type,
    revisionId: r.revision_id,
    revisionState: r.revision_state,
    sessionId: r.session_id,
    sessionState: r.session_state,
    sessionAlias: r.session_alias ?? null,
    definitionId: r.definition_id,
  }));
}

/**
 * Param: JSON array of session ids, then the window (after, upTo]. Rows: session_id, n (0 included).
 * One count per session, each through the executions(session_id, created_at) index (a correlated
 * subquery): the grouped join this replaced let PostgreSQL's planner scan the created_at index for
 * every session's executions of the window, hash them against the list and sort them before the
 * count, 2–3× the time at 20,000 executions in the window (docs/performance.md).
 */
export const COUNT_RECENT_EXECUTIONS_SQL = {
  sqlite: `SELECT k.value AS session_id,
      (SELECT COUNT(*) FROM executions e WHERE e.session_id = k.value AND e.created_at > w.after AND e.created_at <= w.up_to) AS n
    FROM (SELECT ? AS ids, ? AS after, ? AS up_to) AS w, json_each(w.ids) AS k`,
  postgresql: `SELECT k.id AS session_id,
      (SELECT COUNT(*) FROM executions e WHERE e.session_id = k.id AND e.created_at > $2::timestamp(3) AND e.created_at <= $3::timestamp(3)) AS n
    FROM jsonb_array_elements_text($1::jsonb) AS k(id)`,
} as const;

/**
 * Executions of each of `sessionIds` created in the window (after, upTo], in one statement, each
 * session counted through the executions(session_id, created_at) index; 0 for a session with none.
 */
export async function countRecentExecutionsBySession(tx: Tx, sessionIds: string[], after: Date, upTo: Date): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const dialect = dialectOfDb(tx);
  const rows = await queryRows<{ session_id: string; n: number | bigint }>(
    tx,
    COUNT_RECENT_EXECUTIONS_SQL,
    JSON.stringify(sessionIds),
    sqlInstant(dialect, after),
    sqlInstant(dialect, upTo),
  );
  return new Map(rows.map((r) => [r.session_id, Number(r.n)]));
}
