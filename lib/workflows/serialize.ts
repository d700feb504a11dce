/**
 * Rows → the snake_case JSON of the catalog's answers (SPEC §3.2, §3.3). Absent optional values are
 * omitted (never `null`, SPEC §4); instants are ISO 8601 UTC.
 */
import type { Definition, Execution, Revision, WorkflowSession } from '../db';
import type { DefinitionJson, ExecutionJson, RevisionJson, RevisionState, SessionJson, SessionState } from './contract';

/** A session row as `SessionJson`. */
export function sessionJson(s: WorkflowSession): SessionJson {
  return {
    id: s.id,
    ...(s.alias != null ? { alias: s.alias } : {}),
    revision_id: s.revisionId,
    state: s.state as SessionState,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** A definition row as `DefinitionJson`. */
export function definitionJson(d: Definition): DefinitionJson {
  return {
    id: d.id,
    ...(d.alias != null ? { alias: d.alias } : {}),
    revision_id: d.revisionId,
    name: d.name,
    spec: d.spec as DefinitionJson['spec'],
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

/** An execution row as `ExecutionJson`; `schedule_id`/`run_id` only when a fire created it. */
export function executionJson(e: Execution): ExecutionJson {
  return {
    id: e.id,
    revision_id: e.revisionId,
    session_id: e.sessionId,
    definition_id: e.definitionId,
    ...(e.description != null ? { description: e.description } : {}),
    input_data: e.inputData as ExecutionJson['input_data'],
    created_by: { type: e.createdByType as 'user' | 'org', id: e.createdById },
    created_at: e.createdAt.toISOString(),
    ...(e.scheduleId != null ? { schedule_id: e.scheduleId } : {}),
    ...(e.runId != null ? { run_id: e.runId } : {}),
  };
}

/** A revision row as `RevisionJson`; `defaultRevisionId` is its blob's current default pointer. */
export function revisionJson(r: Revision, defaultRevisionId: string | null): RevisionJson {
  return {
    id: r.id,
    blob_id: r.blobId,
    state: r.state as RevisionState,
    is_default: r.id === defaultRevisionId,
    ...(r.parentRevisionId != null ? { parent_revision_id: r.parentRevisionId } : {}),
    created_at: r.createdAt.toISOString(),
    ...(r.committedAt != null ? { committed_at: r.committedAt.toISOString() } : {}),
  };
}
