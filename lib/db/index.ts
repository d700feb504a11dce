export { createDb, getDb, closeDb, dialectOfDb, type Db, type Tx } from './client';
export { dialectOf, type Dialect } from './dialect';
export type { Prisma } from './generated/sqlite/client';
export * from './sql';
export { storageFaultOf, storageFaultError, noteStorageFault, currentStorageFault, clearStorageFault, type StorageFaultCode } from './storage-fault';
