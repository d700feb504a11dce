export { createDb, getDb, closeDb, inTransaction, deferCommitWork, dialectOfDb, withSqliteConnection, type Db, type DbConfig, type Tx } from './client';
export { dialectOf, type Dialect } from './dialect';
export { preparedName } from './pg-prepared';
export { ensurePrivateFile, looseModeNote, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-file';
export type { Prisma } from './generated/sqlite/client';
/** Row types of the catalog's models, as the model API returns them (one data model, both dialects). */
export type { Blob, Definition, Execution, Org, Revision, WorkflowSession } from './generated/sqlite/client';
/** Row type of the dead-letter list (SPEC §12.3). */
export type { DeadLetter as DeadLetterRow } from './generated/sqlite/client';
export * from './sql';
export { migrationStatus, type MigrationStatus } from './migration-status';
export { withMigrationLock } from './migrate';
