/**
 * Which thrown errors are conditions of the installation (lib/errors): storage faults and database
 * faults, found through the wrappers they arrive in. The shapes are the ones recorded from the real
 * stack (Prisma 6.19 with @prisma/adapter-pg and node-postgres against PostgreSQL 15, a closed port and
 * `pg_terminate_backend`); the real cuts themselves are lib/db/__tests__/connection-cut.int.test.ts
 * and app/api/__tests__/database-unavailable.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { conditionError, conditionOf, databaseFaultOf, isConditionCode, ERROR_STATUS, storageFaultOf } from '..';

/** Prisma's wrapper: `meta.driverAdapterError.cause` holds the driver's own fields. */
const prisma = (code: string, message: string, cause: Record<string, unknown>) =>
  Object.assign(new Error(message), { name: 'PrismaClientKnownRequestError', code, meta: { driverAdapterError: Object.assign(new Error('DriverAdapterError'), { cause }) } });
/** node-postgres' and Node's own errors. */
const nodeError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('databaseFaultOf', () => {
  it('names a database that cannot be reached: nothing ran', () => {
    expect(databaseFaultOf(prisma('P1001', "Can't reach database server at 127.0.0.1:5999", { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5999 }))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('connect ECONNREFUSED 127.0.0.1:5999', 'ECONNREFUSED'))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND'))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('timeout exceeded when trying to connect'))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('Connection terminated due to connection timeout'))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('the database system is starting up', '57P03'))).toBe('database_unavailable');
    expect(databaseFaultOf(nodeError('sorry, too many clients already', '53300'))).toBe('database_unavailable');
  });

  it('names a connection lost mid-request: the outcome of a write is unknown', () => {
    const terminated = { originalCode: '57P01', originalMessage: 'terminating connection due to administrator command', kind: 'postgres', code: '57P01', severity: 'FATAL' };
    expect(databaseFaultOf(prisma('P2010', 'Raw query failed. Code: `57P01`.', terminated))).toBe('database_connection_lost');
    expect(databaseFaultOf(Object.assign(new Error('terminating connection due to administrator command'), { name: 'DriverAdapterError', cause: terminated }))).toBe('database_connection_lost');
    expect(databaseFaultOf(nodeError('Connection terminated unexpectedly'))).toBe('database_connection_lost');
    expect(databaseFaultOf(nodeError('read ECONNRESET', 'ECONNRESET'))).toBe('database_connection_lost');
    expect(databaseFaultOf(new Error('the fire failed', { cause: nodeError('Connection terminated unexpectedly') }))).toBe('database_connection_lost');
  });

  it('leaves everything else alone, and a storage fault stays a storage fault', () => {
    expect(databaseFaultOf(new Error('boom'))).toBeNull();
    expect(databaseFaultOf(prisma('P2002', 'Unique constraint failed', { kind: 'UniqueConstraintViolation', code: '23505' }))).toBeNull();
    expect(databaseFaultOf(nodeError('password authentication failed for user "scheduler"', '28P01'))).toBeNull();
    expect(databaseFaultOf('a string')).toBeNull();
    expect(databaseFaultOf(null)).toBeNull();
    const readOnly = prisma('P2010', 'cannot execute INSERT in a read-only transaction', { code: '25006', kind: 'postgres' });
    expect(storageFaultOf(readOnly)).toBe('storage_read_only');
    expect(databaseFaultOf(readOnly)).toBeNull();
    // A storage fault wins over the connection words a wrapper may add around it.
    expect(conditionOf(new Error('Connection terminated unexpectedly', { cause: readOnly }))).toBe('storage_read_only');
    expect(conditionOf(nodeError('read ECONNRESET', 'ECONNRESET'))).toBe('database_connection_lost');
    expect(conditionOf(new Error('boom'))).toBeNull();
    expect(isConditionCode('storage_full')).toBe(true);
    expect(isConditionCode('database_unavailable')).toBe(true);
    expect(isConditionCode('internal_error')).toBe(false);
  });

  it('answers 503 with a sentence that says whether the request ran, never the driver text', () => {
    const unavailable = conditionError(nodeError('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED'))!;
    expect(unavailable.status).toBe(503);
    expect(unavailable.message).toBe('the database cannot be reached: the request did not run; try again once the database is back');
    const lost = conditionError(nodeError('Connection terminated unexpectedly'))!;
    expect(lost.status).toBe(503);
    expect(lost.message).toMatch(/^the connection to the database was lost while the request ran: a change it was making may or may not have been saved \(a read changed nothing\); read it back/);
    expect(`${unavailable.message} ${lost.message}`).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|terminated/);
    expect(ERROR_STATUS.database_unavailable).toBe(503);
    expect(ERROR_STATUS.database_connection_lost).toBe(503);
  });
});
