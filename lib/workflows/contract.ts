/**
 * Contract shapes of the embedded workflow catalog (SPEC §1, §3.2, §3.3, §4, §6, §8.1): the enums, one
 * STRICT zod schema per command body (unknown keys anywhere → `400 invalid_request_body`) and per answer,
 * and the pieces the schedule contract builds on (`WorkflowRefSchema`, `InputDataSchema`, the run-error
 * names). TypeScript types are inferred from these schemas; the OpenAPI document is generated from them.
 * Universal: no I/O, no Prisma, no node built-ins (the browser form and the CLI import it).
 *
 * JSON conventions: optional values (`alias`, `description`, `schedule_id`, …) are OMITTED when absent,
 * never `null`; instants are ISO 8601 UTC strings (`2026-03-08T07:30:00.000Z`).
 */
import { z } from 'zod';
import { ID_PATTERN, isIdShape } from '../ids';

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

/** Who acts (SPEC §1 "auth entity"): a user (browser login or personal key) or an org (org key). */
export const AUTH_ENTITY_TYPES = ['user', 'org'] as const;

/**
 * `result.error` of an `invocation_error` run (SPEC §8.1), one name per way a fire can fail after its
 * occurrence was claimed. The workflow gateway produces all but `internal_error`, which the fire path
 * records for an unforeseen exception.
 */
export const INVOCATION_ERRORS = [
  /** Following only: the target blob or its default revision is gone. */
  'target_not_found',
  /** Following only: the default revision is committed, not a draft. */
  'default_revision_committed',
  /** No session of that id/alias in the resolved revision (pinned: also the revision or blob is gone). */
  'session_not_found',
  /** The session exists but is closed. */
  'session_not_open',
  /** The workflow reference names nothing (SPEC §6.2). */
  'workflow_not_found',
  /** The creator's standing does not reach the target (`write`) or a qualified source (`read`). */
  'access_denied',
  /** `create_execution` refused; the message carries its refusal. */
  'invocation_failed',
  /** An unforeseen exception; the message carries it. */
  'internal_error',
  /** An `http` or `aws` target the stored contract no longer accepts (e.g. saved by an older build). */
  'unsupported_target',
  /**
   * An `http` or `aws` attempt whose delivery was interrupted twice by its worker dying: not sent a
   * third time (SPEC §13: at most one repeated delivery per interrupted attempt).
   */
  'delivery_interrupted',
  /**
   * An `http` or `aws` attempt whose schedule was disabled or deleted while it waited for a delivery
   * slot: never sent (SPEC §12.2: disabling cancels what is not yet attempted).
   */
  'cancelled',
] as const;
export type InvocationError = (typeof INVOCATION_ERRORS)[number];

/** Page sizes of the catalog's list commands (items per page). */
export const PAGE_SIZE = { sessions: 50, definitions: 50, executions: 50 } as const;

/** Most serialized bytes (UTF-8 of `JSON.stringify`) an `input_data` may hold (SPEC §6), inclusive. */
export const INPUT_DATA_MAX_BYTES = 64 * 1024;

/** Longest execution and schedule description (SPEC §3.2, §5.1), in characters, inclusive. */
export const DESCRIPTION_MAX = 256;

/** Longest alias of one `input_data` item, in characters, inclusive (docs/decisions.md). */
export const INPUT_ALIAS_MAX = 256;

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** A generated id as answered (SPEC §1): lowercase `8-4-4-4-12` hex. */
export const IdSchema = z.string().regex(ID_PATTERN, 'must be a generated id');

/** An instant as answered: ISO 8601 UTC with `Z` (`2026-03-08T07:30:00.000Z`). */
export const InstantSchema = z.iso.datetime();

/** Any JSON value (`input_data` values, definition specs). One instance, so the OpenAPI document names it once. */
export const JsonValueSchema = z.json();

/** `created_by` (SPEC §5.1): the auth entity that created the object. */
export const AuthEntitySchema = z.strictObject({ type: z.enum(AUTH_ENTITY_TYPES), id: z.string() });
export type AuthEntityJson = z.infer<typeof AuthEntitySchema>;

/** An id-or-alias reference as sent: a non-blank string of at most 64 chars (SPEC §6). */
export const RefSchema = z
  .string()
  .max(64, 'must be at most 64 characters')
  .refine((s) => s.trim().length > 0, 'must not be blank');

/** An alias to set: the grammar (SPEC §4) is checked by the domain with `400 invalid_alias`. */
const AliasInput = z.string().max(200, 'must be at most 200 characters');

/** An alias as answered: present only when set (SPEC §4). */
const AliasOut = z.string().optional();

/**
 * Where a fire runs (SPEC §6.1): `blob` by id or alias (an alias needs `org`; an org given with an id
 * must be that blob's), `revision` a revision id (pinned) or `default` (following), `session` an id or
 * alias (pinned: rewritten to its id at save; following: an alias, resolved at every fire).
 */
export const TargetRefSchema = z.strictObject({ org: RefSchema.optional(), blob: RefSchema, revision: RefSchema, session: RefSchema });
export type TargetRef = z.infer<typeof TargetRefSchema>;

/**
 * A workflow reference (SPEC §6.2): `{definition}` (bare: looked up in the target's own revision) or
 * qualified with `blob` (+ `org` when `blob` is an alias) and optional `revision` (id or `default`,
 * default `default`). The cross-field rules are `workflowRefProblem`, because their code is
 * `invalid_workflow_reference`, not `invalid_request_body`.
 */
export const WorkflowRefSchema = z.strictObject({
  org: RefSchema.optional(),
  blob: RefSchema.optional(),
  revision: RefSchema.optional(),
  definition: RefSchema,
});
export type WorkflowRef = z.infer<typeof WorkflowRefSchema>;

/**
 * The qualification rule of a workflow reference (SPEC §6.2), shared by `create_execution` and the
 * schedule contract: `org`/`revision` qualify a `blob` and are refused without one (path `workflow.blob`,
 * the missing field); a `blob` alias needs `org` (path `workflow.org`). Returns the message and the path
 * under `basePath` for `400 invalid_workflow_reference`, or null.
 */
export function workflowRefProblem(ref: WorkflowRef, basePath = 'workflow'): { message: string; path: string } | null {
  if (ref.blob === undefined) {
    const given = (['org', 'revision'] as const).filter((k) => ref[k] !== undefined).map((k) => `workflow.${k}`);
    if (!given.length) return null;
    return { message: `${given.join(' and ')} ${given.length > 1 ? 'qualify' : 'qualifies'} workflow.blob, which is missing`, path: `${basePath}.blob` };
  }
  if (!isIdShape(ref.blob) && ref.org === undefined) {
    return { message: 'workflow.blob is an alias, so workflow.org is required', path: `${basePath}.org` };
  }
  return null;
}

/** One execution input (SPEC §6): `{alias, value}` with any JSON value. */
export const InputDatumSchema = z.strictObject({
  alias: z.string().min(1).max(INPUT_ALIAS_MAX),
  // A missing `value` reads "value is required" rather than the JSON union's "Invalid input".
  value: z.unknown().refine((v) => v !== undefined, 'value is required').pipe(JsonValueSchema),
});
export type InputDatum = z.infer<typeof InputDatumSchema>;

/** `input_data` (SPEC §6): an array of `{alias, value}`, at most 64 KiB serialized. The one schema of it. */
export const InputDataSchema = z
  .array(InputDatumSchema)
  .refine(
    (items) => new TextEncoder().encode(JSON.stringify(items)).length <= INPUT_DATA_MAX_BYTES,
    `must be at most 64 KiB (${INPUT_DATA_MAX_BYTES} bytes) serialized`,
  );

// ---------------------------------------------------------------------------------------------
// Command bodies (SPEC §3.2). Params sit at the top level of the body, without engine/command.

export const CreateSessionParams = z.strictObject({ alias: AliasInput.optional() });
/** `session_id` is an id or an alias (SPEC §3.2). */
export const SessionRefParams = z.strictObject({ session_id: RefSchema });
/** `alias: null` removes the alias; an absent `alias` changes nothing. */
export const UpdateSessionParams = z.strictObject({ session_id: RefSchema, alias: AliasInput.nullable().optional() });
export const ListSessionsParams = z.strictObject({
  start_session_id: z.string().optional(),
  state: z.enum(SESSION_STATES).optional(),
});

export const CreateDefinitionParams = z.strictObject({
  alias: AliasInput.optional(),
  name: z.string().trim().min(1).max(256),
  spec: JsonValueSchema.optional(),
});
export const UpdateDefinitionParams = z.strictObject({
  definition_id: RefSchema,
  alias: AliasInput.nullable().optional(),
  name: z.string().trim().min(1).max(256).optional(),
  spec: JsonValueSchema.optional(),
});
export const ListDefinitionsParams = z.strictObject({ start_definition_id: z.string().optional() });

export const CreateExecutionParams = z.strictObject({
  target: z.strictObject({ session: RefSchema }),
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

// ---------------------------------------------------------------------------------------------
// Answers

/** What every object inside a revision answers with: its id, its alias when set, and its revision. */
const InRevision = { id: IdSchema, alias: AliasOut, revision_id: IdSchema };
/** When an object was created and last changed (UTC). */
const Stamps = { created_at: InstantSchema, updated_at: InstantSchema };

/** A session as answered (SPEC §1). */
export const SessionSchema = z.strictObject({ ...InRevision, state: z.enum(SESSION_STATES), ...Stamps });
export type SessionJson = z.infer<typeof SessionSchema>;

/** A definition as answered (SPEC §1). `spec` is the opaque JSON body. */
export const DefinitionSchema = z.strictObject({ ...InRevision, name: z.string(), spec: JsonValueSchema, ...Stamps });
export type DefinitionJson = z.infer<typeof DefinitionSchema>;

/** An execution as answered (SPEC §1). `schedule_id`/`run_id` only when a fire created it. */
export const ExecutionSchema = z.strictObject({
  id: IdSchema,
  revision_id: IdSchema,
  session_id: IdSchema,
  definition_id: IdSchema,
  description: z.string().optional(),
  input_data: InputDataSchema,
  created_by: AuthEntitySchema,
  created_at: InstantSchema,
  schedule_id: IdSchema.optional(),
  run_id: IdSchema.optional(),
});
export type ExecutionJson = z.infer<typeof ExecutionSchema>;

/** A revision as answered by the revision commands. */
export const RevisionSchema = z.strictObject({
  id: IdSchema,
  blob_id: IdSchema,
  state: z.enum(REVISION_STATES),
  is_default: z.boolean(),
  parent_revision_id: IdSchema.optional(),
  created_at: InstantSchema,
  committed_at: InstantSchema.optional(),
});
export type RevisionJson = z.infer<typeof RevisionSchema>;

/** The discovery shape of SPEC §3.3. */
export const BlobDescriptionSchema = z.strictObject({
  id: IdSchema,
  alias: AliasOut,
  org: z.strictObject({ id: IdSchema, alias: AliasOut }),
  type: z.enum(BLOB_TYPES),
  default_revision_id: IdSchema.nullable(),
  revisions: z.array(z.strictObject({ id: IdSchema, state: z.enum(REVISION_STATES), is_default: z.boolean(), created_at: InstantSchema })),
});
export type BlobDescription = z.infer<typeof BlobDescriptionSchema>;

/** `GET /api/v1/orgs/{org}/blobs` (SPEC §3.3): the blobs the caller can read. */
export const BlobListSchema = z.strictObject({ blobs: z.array(BlobDescriptionSchema) });

export const SessionAnswer = z.strictObject({ session: SessionSchema });
export const DefinitionAnswer = z.strictObject({ definition: DefinitionSchema });
export const ExecutionAnswer = z.strictObject({ execution: ExecutionSchema });
export const RevisionAnswer = z.strictObject({ revision: RevisionSchema });
/** The answer of a command that returns nothing (`delete_session`, `delete_schedule`). */
export const EmptyAnswer = z.strictObject({});
/** List pages: the items and the exclusive cursor of the next page, `null` on the last page. */
export const SessionPage = z.strictObject({ sessions: z.array(SessionSchema), last_session_id: IdSchema.nullable() });
export const DefinitionPage = z.strictObject({ definitions: z.array(DefinitionSchema), last_definition_id: IdSchema.nullable() });
export const WorkflowExecutionPage = z.strictObject({ executions: z.array(ExecutionSchema), last_execution_id: IdSchema.nullable() });

/** One command's contract: the schema of its parameters and of its 200 answer. */
export interface CommandContract {
  /** The body's parameters (top level of the body, beside `engine` and `command`). */
  params: z.ZodObject;
  answer: z.ZodType;
  /** One line for the OpenAPI document. */
  summary: string;
}

/**
 * The `"engine": "workflow_blobhub"` commands (SPEC §3.2): parameters and answer of each. The command
 * table in `commands.ts` is typed against it, so a command cannot exist without its contract.
 */
export const WORKFLOW_COMMANDS = {
  create_session: { params: CreateSessionParams, answer: SessionAnswer, summary: 'Create a session in the route\'s draft revision.' },
  get_session: { params: SessionRefParams, answer: SessionAnswer, summary: 'One session, by id or alias.' },
  update_session: { params: UpdateSessionParams, answer: SessionAnswer, summary: 'Rename a session (`alias: null` removes the alias).' },
  close_session: { params: SessionRefParams, answer: SessionAnswer, summary: 'Close a session: it runs no executions until reopened.' },
  reopen_session: { params: SessionRefParams, answer: SessionAnswer, summary: 'Reopen a closed session.' },
  delete_session: { params: SessionRefParams, answer: EmptyAnswer, summary: 'Delete a session and its executions.' },
  list_sessions: { params: ListSessionsParams, answer: SessionPage, summary: 'Sessions of the revision, 50 a page, oldest first.' },
  create_definition: { params: CreateDefinitionParams, answer: DefinitionAnswer, summary: 'Create a workflow definition.' },
  update_definition: { params: UpdateDefinitionParams, answer: DefinitionAnswer, summary: 'Change a definition\'s alias, name or spec.' },
  list_definitions: { params: ListDefinitionsParams, answer: DefinitionPage, summary: 'Definitions of the revision, 50 a page, oldest first.' },
  create_execution: { params: CreateExecutionParams, answer: ExecutionAnswer, summary: 'Run a definition in a session (SPEC §6.2 reference).' },
  list_workflow_executions: { params: ListWorkflowExecutionsParams, answer: WorkflowExecutionPage, summary: 'Executions of the revision, 50 a page, newest first.' },
  commit_revision: { params: NoParams, answer: RevisionAnswer, summary: 'Freeze the route\'s draft revision.' },
  branch_revision: { params: NoParams, answer: RevisionAnswer, summary: 'Branch the route\'s committed revision into a new draft.' },
  set_default_revision: { params: NoParams, answer: RevisionAnswer, summary: 'Make the route\'s revision its blob\'s default.' },
} as const satisfies Record<string, CommandContract>;
export type WorkflowCommandName = keyof typeof WORKFLOW_COMMANDS;

/** One route of SPEC §3.3 (org-level, outside the command endpoint): method, path, body (if any) and answer. */
export interface RouteContract {
  method: 'get' | 'post';
  /** OpenAPI path template; `{org}` and `{blob}` are ids or aliases. */
  path: string;
  body: z.ZodObject | null;
  answer: z.ZodType;
  summary: string;
}

/** The blob routes (SPEC §3.3): how clients (the CLI, scripts) find a scheduler's revision id. */
export const BLOB_ROUTES = {
  list_blobs: { method: 'get', path: '/api/v1/orgs/{org}/blobs', body: null, answer: BlobListSchema, summary: 'The blobs of an org the caller can read.' },
  create_blob: { method: 'post', path: '/api/v1/orgs/{org}/blobs', body: CreateBlobParams, answer: BlobDescriptionSchema, summary: 'Create a workflow or scheduler blob (needs write on the org).' },
  describe_blob: { method: 'get', path: '/api/v1/orgs/{org}/blobs/{blob}', body: null, answer: BlobDescriptionSchema, summary: 'One blob and its revisions.' },
} as const satisfies Record<string, RouteContract>;
