export { createDb, getDb, closeDb, type Db, type Tx } from './client';
export type { Prisma } from './generated/sqlite/client';
