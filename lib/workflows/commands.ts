/**
 * The `"engine": "workflow_blobhub"` commands of `POST /api/v1/revisions/{revision_id}/data` (SPEC §3.2)
 * and the blob routes of SPEC §3.3. Each handler parses its strict schema, calls one catalog verb (a
 * verb that writes opens its own transaction) and shapes the answer; rules live in the verbs. The
 * router has already answered `404 not_found` to a caller who cannot read the revision; a reader
 * attempting a write gets `403 forbidden`.
 *
 * | command | params (top level of the body) | answer |
 * |---|---|---|
 * | `create_session` | `alias?` | `{session}` |
 * | `get_session` | `session_id` (id or alias) | `{session}` |
 * | `update_session` | `session_id`, `alias?` (string, or null to remove) | `{session}` |
 * | `close_session` / `reopen_session` | `session_id` | `{session}` |
 * | `delete_session` | `session_id` | `{}` |
 * | `list_sessions` | `start_session_id?`, `state?` (`open`/`closed`) | `{sessions, last_session_id}` (50 a page, oldest first) |
 * | `create_definition` | `alias?`, `name`, `spec?` (any JSON, default `{}`) | `{definition}` |
 * | `update_definition` | `definition_id` (id or alias), `alias?` (null removes), `name?`, `spec?` | `{definition}` |
 * | `list_definitions` | `start_definition_id?` | `{definitions, last_definition_id}` (50 a page, oldest first) |
 * | `create_execution` | `target: {session}`, `workflow` (§6.2), `input_data`, `description?` | `{execution}` |
 * | `list_workflow_executions` | `session_id?` (id only), `start_execution_id?` | `{executions, last_execution_id}` (50 a page, newest first) |
 * | `commit_revision` | — (the route's revision) | `{revision}` |
 * | `branch_revision` | — (branches the route's committed revision) | `{revision}` (the new draft) |
 * | `set_default_revision` | — (the route's revision becomes the default) | `{revision}` |
 *
 * Cursors are exclusive: pass the previous page's `last_…_id`; it is `null` on the last page.
 */
import type { Db } from '../db';
import type { Actor } from '../auth';
import type { CommandContext, CommandTable } from './command-context';
import {
  CreateBlobParams,
  CreateDefinitionParams,
  CreateExecutionParams,
  CreateSessionParams,
  ListDefinitionsParams,
  ListSessionsParams,
  ListWorkflowExecutionsParams,
  NoParams,
  SessionRefParams,
  UpdateDefinitionParams,
  UpdateSessionParams,
  WORKFLOW_COMMANDS,
  type BlobDescription,
} from './contract';
import { parseOrRefuse as parseParams } from '../errors';
import { createSchedulerBlob } from './blobs/create-scheduler-blob';
import { createWorkflowBlob } from './blobs/create-workflow-blob';
import { getBlobDescription } from './blobs/get-blob-description';
import { listReadableBlobs } from './blobs/list-readable-blobs';
import { branchRevision } from './revisions/branch-revision';
import { commitRevision } from './revisions/commit-revision';
import { setDefaultRevision } from './revisions/set-default-revision';
import { closeSession } from './sessions/close-session';
import { createSession } from './sessions/create-session';
import { deleteSession } from './sessions/delete-session';
import { getSession } from './sessions/get-session';
import { listSessions } from './sessions/list-sessions';
import { reopenSession } from './sessions/reopen-session';
import { updateSession } from './sessions/update-session';
import { createDefinition } from './definitions/create-definition';
import { listDefinitions } from './definitions/list-definitions';
import { updateDefinition } from './definitions/update-definition';
import { createExecutionByRef } from './executions/create-execution-by-ref';
import { listWorkflowExecutions } from './executions/list-workflow-executions';

/** The verb options every revision command starts from. */
const base = (ctx: CommandContext) => ({ actor: ctx.actor, revisionId: ctx.revision.id });

/** The handlers of `WORKFLOW_COMMANDS`, one per command, each answering its contract's shape. */
export const workflowCommands: CommandTable<typeof WORKFLOW_COMMANDS> = {
  async create_session(ctx) {
    const p = parseParams(CreateSessionParams, ctx.params);
    return { session: await createSession(ctx.db, { ...base(ctx), alias: p.alias, now: ctx.now }) };
  },
  async get_session(ctx) {
    const p = parseParams(SessionRefParams, ctx.params);
    return { session: await getSession(ctx.db, { ...base(ctx), session: p.session_id }) };
  },
  async update_session(ctx) {
    const p = parseParams(UpdateSessionParams, ctx.params);
    return { session: await updateSession(ctx.db, { ...base(ctx), session: p.session_id, alias: p.alias, now: ctx.now }) };
  },
  async close_session(ctx) {
    const p = parseParams(SessionRefParams, ctx.params);
    return { session: await closeSession(ctx.db, { ...base(ctx), session: p.session_id, now: ctx.now }) };
  },
  async reopen_session(ctx) {
    const p = parseParams(SessionRefParams, ctx.params);
    return { session: await reopenSession(ctx.db, { ...base(ctx), session: p.session_id, now: ctx.now }) };
  },
  async delete_session(ctx) {
    const p = parseParams(SessionRefParams, ctx.params);
    await deleteSession(ctx.db, { ...base(ctx), session: p.session_id });
    return {};
  },
  async list_sessions(ctx) {
    const p = parseParams(ListSessionsParams, ctx.params);
    const page = await listSessions(ctx.db, { ...base(ctx), state: p.state, startSessionId: p.start_session_id });
    return { sessions: page.sessions, last_session_id: page.lastSessionId };
  },
  async create_definition(ctx) {
    const p = parseParams(CreateDefinitionParams, ctx.params);
    return { definition: await createDefinition(ctx.db, { ...base(ctx), alias: p.alias, name: p.name, spec: p.spec, now: ctx.now }) };
  },
  async update_definition(ctx) {
    const p = parseParams(UpdateDefinitionParams, ctx.params);
    return {
      definition: await updateDefinition(ctx.db, {
        ...base(ctx),
        definition: p.definition_id,
        alias: p.alias,
        name: p.name,
        spec: p.spec,
        now: ctx.now,
      }),
    };
  },
  async list_definitions(ctx) {
    const p = parseParams(ListDefinitionsParams, ctx.params);
    const page = await listDefinitions(ctx.db, { ...base(ctx), startDefinitionId: p.start_definition_id });
    return { definitions: page.definitions, last_definition_id: page.lastDefinitionId };
  },
  async create_execution(ctx) {
    const p = parseParams(CreateExecutionParams, ctx.params);
    return {
      execution: await createExecutionByRef(ctx.db, {
        ...base(ctx),
        session: p.target.session,
        workflow: p.workflow,
        inputData: p.input_data,
        description: p.description,
        now: ctx.now,
        limits: ctx.limits,
      }),
    };
  },
  async list_workflow_executions(ctx) {
    const p = parseParams(ListWorkflowExecutionsParams, ctx.params);
    const page = await listWorkflowExecutions(ctx.db, { ...base(ctx), sessionId: p.session_id, startExecutionId: p.start_execution_id });
    return { executions: page.executions, last_execution_id: page.lastExecutionId };
  },
  async commit_revision(ctx) {
    parseParams(NoParams, ctx.params);
    return { revision: await commitRevision(ctx.db, { ...base(ctx), now: ctx.now }) };
  },
  async branch_revision(ctx) {
    parseParams(NoParams, ctx.params);
    return { revision: await branchRevision(ctx.db, { ...base(ctx), now: ctx.now }) };
  },
  async set_default_revision(ctx) {
    parseParams(NoParams, ctx.params);
    return { revision: await setDefaultRevision(ctx.db, base(ctx)) };
  },
};

/** What the blob routes of SPEC §3.3 hand to the handlers below. */
export interface OrgRouteContext {
  db: Db;
  actor: Actor;
  /** The `{org}` path segment: an org id or alias. */
  org: string;
  /** The request's instant (UTC). */
  now: Date;
}

/**
 * `POST /api/v1/orgs/{org}/blobs` with body `{type: "workflow"|"scheduler", alias?, name?}` (strict).
 * Creates a workflow blob (first draft revision as default) or a scheduler blob (its managed revision as
 * default) and answers with its §3.3 description. Needs `write` on the org.
 * @throws `400 invalid_request_body`, `404 not_found`, `403 forbidden`, `400 invalid_alias`, `409 alias_taken`.
 */
export async function createBlobHandler(ctx: OrgRouteContext & { params: unknown }): Promise<BlobDescription> {
  const p = parseParams(CreateBlobParams, ctx.params);
  const create = p.type === 'workflow' ? createWorkflowBlob : createSchedulerBlob;
  return create(ctx.db, { actor: ctx.actor, org: ctx.org, alias: p.alias, name: p.name, now: ctx.now });
}

/**
 * `GET /api/v1/orgs/{org}/blobs/{blob}` (SPEC §3.3): the blob's description.
 * @throws `404 not_found` when missing or unreadable.
 */
export async function getBlobHandler(ctx: OrgRouteContext & { blob: string }): Promise<BlobDescription> {
  return getBlobDescription(ctx.db, { actor: ctx.actor, org: ctx.org, blob: ctx.blob });
}

/**
 * `GET /api/v1/orgs/{org}/blobs` (SPEC §3.3): `{blobs: [description…]}`, the blobs the caller can read.
 * @throws `404 not_found` when the org is missing or invisible to the caller.
 */
export async function listBlobsHandler(ctx: OrgRouteContext): Promise<{ blobs: BlobDescription[] }> {
  return listReadableBlobs(ctx.db, { actor: ctx.actor, org: ctx.org });
}
