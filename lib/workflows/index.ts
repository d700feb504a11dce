/**
 * Public entry of the embedded workflow catalog (SPEC §1, §3.2, §3.3, §6, §8). Other folders import
 * only this file (and `contract.ts`). Every verb takes `(db: Db, opts)`: a verb that writes opens its
 * own transaction (`inTransaction`, lib/db), so callers never do; reads run on `db`. The `find…`/
 * `require…` lookups and the gateway take `Tx` and run inside their caller's transaction. Each
 * documents its shapes, errors and SPEC section.
 */

// Contract: enums, strict schemas, JSON shapes.
export * from './contract';
export { sessionJson, definitionJson, executionJson, revisionJson } from './serialize';

// Blobs (SPEC §1, §3.3).
export { createWorkflowBlob, type CreateWorkflowBlobOptions } from './blobs/create-workflow-blob';
export { createSchedulerBlob, insertSchedulerBlob, type CreateSchedulerBlobOptions } from './blobs/create-scheduler-blob';
export { DEFAULT_SCHEDULER, deleteBlob, deleteBlobCascade, isDefaultScheduler, refuseDefaultSchedulerDelete, type DeleteBlobOptions } from './blobs/delete-blob';
export { findBlobByRef, type FindBlobByRefOptions } from './blobs/find-blob-by-ref';
export { findOrgByRef, findVisibleOrg, type FindOrgByRefOptions } from './blobs/find-org-by-ref';
export { getBlobDescription, describeBlob, type GetBlobDescriptionOptions } from './blobs/get-blob-description';
export { listReadableBlobs, type ListReadableBlobsOptions } from './blobs/list-readable-blobs';
export {
  listCatalogOrgs,
  getCatalogBlob,
  getCatalogRevision,
  type CatalogOrg,
  type CatalogBlob,
  type CatalogBlobDetail,
  type CatalogRevision,
} from './blobs/catalog-overview';

// Revisions (SPEC §1).
export { commitRevision, type CommitRevisionOptions } from './revisions/commit-revision';
export { branchRevision, type BranchRevisionOptions } from './revisions/branch-revision';
export { setDefaultRevision, type SetDefaultRevisionOptions } from './revisions/set-default-revision';
export { getReadableRevision, type GetReadableRevisionOptions, type ReadableRevision } from './revisions/get-readable-revision';

// Sessions (SPEC §1, §3.2).
export { createSession, type CreateSessionOptions } from './sessions/create-session';
export { getSession, type GetSessionOptions } from './sessions/get-session';
export { updateSession, type UpdateSessionOptions } from './sessions/update-session';
export { closeSession, type CloseSessionOptions } from './sessions/close-session';
export { reopenSession, type ReopenSessionOptions } from './sessions/reopen-session';
export { deleteSession, type DeleteSessionOptions } from './sessions/delete-session';
export { listSessions, type ListSessionsOptions } from './sessions/list-sessions';
export { findSessionByRef, requireSessionByRef, type FindSessionByRefOptions } from './sessions/find-session-by-ref';

// Definitions (SPEC §1, §3.2, §6.2).
export { createDefinition, type CreateDefinitionOptions } from './definitions/create-definition';
export { updateDefinition, type UpdateDefinitionOptions } from './definitions/update-definition';
export { listDefinitions, type ListDefinitionsOptions } from './definitions/list-definitions';
export { findDefinitionByRef, requireDefinitionByRef, type FindDefinitionByRefOptions } from './definitions/find-definition-by-ref';
export {
  resolveWorkflowReference,
  type ResolveWorkflowReferenceOptions,
  type WorkflowResolution,
} from './definitions/resolve-workflow-reference';

// Executions (SPEC §1, §3.2, §9).
export {
  createExecution,
  EXECUTIONS_LIMIT_NAME,
  EXECUTIONS_LIMIT_WINDOW_MS,
  type CreateExecutionOptions,
  type ExecutionLimits,
} from './executions/create-execution';
export { createExecutionByRef, type CreateExecutionByRefOptions } from './executions/create-execution-by-ref';
export { listWorkflowExecutions, type ListWorkflowExecutionsOptions } from './executions/list-workflow-executions';
export { getWorkflowExecution, type GetWorkflowExecutionOptions } from './executions/get-workflow-execution';
export { executionOrigins, type ExecutionOriginsOptions, type ExecutionOrigin } from './executions/execution-origins';
export { findDeletedExecutions, type RunExecutionRef, type DeletedExecutionCause } from './executions/find-deleted-executions';

// The scheduler's seam (SPEC §6, §8).
export {
  embeddedGateway,
  checkInvocationTarget,
  type WorkflowGateway,
  type MissingTargetSession,
  type ResolveError,
  type ResolveFailure,
  type ResolvedTarget,
  type ResolvedWorkflow,
  type CreateExecutionRequest,
  type CreateExecutionOutcome,
  type FireKey,
  type VerifiedFire,
  type CheckedExecution,
} from './gateway';

// Transport: command handlers and blob route handlers.
export { workflowCommands, createBlobHandler, getBlobHandler, listBlobsHandler, type OrgRouteContext } from './commands';
/** Parse a command body or form with its contract schema, or throw its SPEC error (`parseOrRefuse`). */
export { parseOrRefuse as parseParams } from '../errors';
export { isUniqueViolation } from './guards';
export type { CommandContext, CommandHandler, CommandTable, DirectRead } from './command-context';
