/**
 * Contract shapes of the embedded workflow catalog (SPEC §1, §3.2, §3.3, §4, §6.2): the enums, one
 * STRICT zod schema per command body (unknown keys anywhere → `400 invalid_request_body`), and the
 * snake_case JSON types the commands answer with. Universal: no I/O, no Prisma.
 *
 * JSON conventions: optional values (`alias`, `description`, `schedule_id`, …) are OMITTED when absent,
 * never `null`; instants are ISO 8601 UTC strings (`2026-03-08T07:30:00.000Z`).
 */
import { z } from 'zod';

/** Blob types (SPEC §1). */
export const BLOB_TYPES = [
  /** Holds workflow revisions (drafts and committed ones). */
  'workflow',
  /** Holds schedules in its one `managed` revision. */
  'scheduler',
] as const;
export type BlobType = (typeof BLOB_TYPES)[number];

/** Revision states (SPEC §1). */
export const REVISION_STATES = [
  /** Accepts writes and runs executions. */
  'draft',
  /** Frozen: no writes, no executions; can be branched. */
  'committed',
  /** A scheduler blob's one always-writable revision; never committed or branched. */
  'managed',
] as const;
export type RevisionState = (typeof REVISION_STATES)[number];

/** Session states (SPEC §1). Only an `open` session runs executions. */
export const SESSION_STATES = ['open', 'closed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** Page sizes of the catalog's list commands (items per page). */
export const PAGE_SIZE = { sessions: 50, definitions: 50, executions: 50 } as const;

/** Most serialized bytes (UTF-8 of `JSON.stringify`) an execution's `input_data` may hold (SPEC §6). */
export const INPUT_DATA_MAX_BYTES = 64 * 1024;

/** Longest execution description (SPEC §3.2), in characters, inclusive. */
export const DESCRIPTION_MAX = 256;

// ---------------------------------------------------------------------------------------------
// Request pieces

/** An id-or-alias reference as sent: a non-blank string of at most 64 chars (SPEC §6). */
const Ref = z
  .string()
  .max(64, 'must be at most 64 characters')
  .refine((s) => s.trim().length > 0, 'must not be blank');

/** An alias to set: the grammar (SPEC §4) is checked by the domain with `400 invalid_alias`. */
const AliasInput = z.string().max(200, 'must be at most 200 characters');

/**
 * A workflow reference (SPEC §6.2): `{definition}` (bare: looked up in the target's own revision) or
 * qualified with `blob` (+ `org` when `blob` is an alias) and optional `revision` (id or `default`,
 * default `default`). The cross-field rules (blob alias needs org; org/revision need blob) are checked
 * by `workflowRefProblem`, because their code is `invalid_workflow_reference`, not `invalid_request_body`.
 */
export const WorkflowRefSchema = z.strictObject({
  org: Ref.optional(),
  blob: Ref.optional(),
  revision: Ref.optional(),
  definition: Ref,
});
export type WorkflowRef = z.infer<typeof WorkflowRefSchema>;

/** One execution input (SPEC §6): `{alias, value}` with any JSON value. */
export const InputDatumSchema = z.strictObject({
  alias: z.string().min(1).max(256),
  value: z.json(),
});
export type InputDatum = z.infer<typeof InputDatumSchema>;

/** `input_data` (SPEC §6): an array of `{alias, value}`, at most 64 KiB serialized. */
export const InputDataSchema = z
  .array(InputDatumSchema)
  .refine(
    (items) => new TextEncoder().encode(JSON.stringify(items)).length <= INPUT_DATA_MAX_BYTES,
    `must be at most ${INPUT_DATA_MAX_BYTES} bytes serialized`,
  );

// ---------------------------------------------------------------------------------------------
// Command bodies (SPEC §3.2). Params sit at the top level of the body, without engine/command.

export const CreateSessionParams = z.strictObject({ alias: AliasInput.optional() });
/** `session_id` is an id or an alias (SPEC §3.2). */
export const SessionRefParams = z.strictObject({ session_id: Ref });
/** `alias: null` removes the alias; an absent `alias` changes nothing. */
export const UpdateSessionParams = z.strictObject({ session_id: Ref, alias: AliasInput.nullable().optional() });
export const ListSessionsParams = z.strictObject({
  start_session_id: z.string().optional(),
  state: z.enum(SESSION_STATES).optional(),
});

export const CreateDefinitionParams = z.strictObject({
  alias: AliasInput.optional(),
  name: z.string().trim().min(1).max(256),
  spec: z.json().optional(),
});
export const UpdateDefinitionParams = z.strictObject({
  definition_id: Ref,
  alias: AliasInput.nullable().optional(),
  name: z.string().trim().min(1).max(256).optional(),
  spec: z.json().optional(),
});
export const ListDefinitionsParams = z.strictObject({ start_definition_id: z.string().optional() });

export const CreateExecutionParams = z.strictObject({
  target: z.strictObject({ session: Ref }),
  workflow: WorkflowRefSchema,
  input_data: InputDataSchema,
  description: z.string().max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`).optional(),
});
export const ListWorkflowExecutionsParams = z.strictObject({
  /** Session filter: id only (SPEC §3.2 "everything else is id only"). */
  session_id: z.string().optional(),
  start_execution_id: z.string().optional(),
});

/** Revision commands act on the route's revision and take no parameters. */
export const NoParams = z.strictObject({});

/** Body of `POST /api/v1/orgs/{org}/blobs`. `name` defaults to the alias, else the type. */
export const CreateBlobParams = z.strictObject({
  type: z.enum(BLOB_TYPES),
  alias: AliasInput.optional(),
  name: z.string().trim().min(1).max(256).optional(),
});

/**
 * The cross-field problem of a workflow reference (SPEC §6.2), or null: a `blob` alias without `org`,
 * or `org`/`revision` without `blob`. Returns the message and the field path for `invalid_workflow_reference`.
 */
export function workflowRefProblem(ref: WorkflowRef, basePath = 'workflow'): { message: string; path: string } | null {
  if (ref.blob === undefined) {
    if (ref.org !== undefined) return { message: 'workflow.org is given without workflow.blob', path: `${basePath}.org` };
    if (ref.revision !== undefined) {
      return { message: 'workflow.revision is given without workflow.blob', path: `${basePath}.revision` };
    }
    return null;
  }
  if (!isIdLike(ref.blob) && ref.org === undefined) {
    return { message: 'workflow.blob is an alias, so workflow.org is required', path: `${basePath}.org` };
  }
  return null;
}

// The generated-id shape of lib/ids `isIdShape`, repeated here because lib/ids imports node:crypto and
// this file must stay universal (a browser form may import it).
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
function isIdLike(ref: string): boolean {
  return UUID_SHAPE.test(ref.trim().toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Response shapes

/** A session as answered (SPEC §1). */
export interface SessionJson {
  id: string;
  alias?: string;
  revision_id: string;
  state: SessionState;
  created_at: string;
  updated_at: string;
}

/** A definition as answered (SPEC §1). `spec` is the opaque JSON body. */
export interface DefinitionJson {
  id: string;
  alias?: string;
  revision_id: string;
  name: string;
  spec: unknown;
  created_at: string;
  updated_at: string;
}

/** An execution as answered (SPEC §1). `schedule_id`/`run_id` only when a fire created it. */
export interface ExecutionJson {
  id: string;
  revision_id: string;
  session_id: string;
  definition_id: string;
  description?: string;
  input_data: unknown;
  created_by: { type: 'user' | 'org'; id: string };
  created_at: string;
  schedule_id?: string;
  run_id?: string;
}

/** A revision as answered by the revision commands. */
export interface RevisionJson {
  id: string;
  blob_id: string;
  state: RevisionState;
  is_default: boolean;
  parent_revision_id?: string;
  created_at: string;
  committed_at?: string;
}

/** The discovery shape of SPEC §3.3. */
export interface BlobDescription {
  id: string;
  alias?: string;
  org: { id: string; alias?: string };
  type: BlobType;
  default_revision_id: string | null;
  revisions: { id: string; state: RevisionState; is_default: boolean; created_at: string }[];
}
