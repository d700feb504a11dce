/**
 * The EventBridge facade's answer to a condition of the installation (lib/api/eventbridge/domain-errors.ts
 * `toAwsError`): AWS's server-side fault, `InternalServerException` (500, which the AWS SDKs retry),
 * carrying the product's sentence for the fault instead of AWS's generic text, and never the driver's.
 */
import { describe, expect, it } from 'vitest';
import { toAwsError } from '../domain-errors';

const ctx = { accountId: '123456789012', accessKeyId: 'AKIAEXAMPLE' };
const subject = { operation: 'CreateSchedule', resourceArn: 'arn:aws:scheduler:us-east-1:123456789012:schedule/default/nightly' };

describe('toAwsError for storage and database faults', () => {
  it('a connection lost mid-request says the change may or may not have been saved', () => {
    const e = toAwsError(Object.assign(new Error('Connection terminated unexpectedly')), ctx, subject);
    expect(e.code).toBe('InternalServerException');
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/^the connection to the database was lost while the request ran: a change it was making may or may not have been saved \(a read changed nothing\); read it back/);
  });
  it('a database out of reach says the request did not run', () => {
    const e = toAwsError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }), ctx, subject);
    expect(e.code).toBe('InternalServerException');
    expect(e.message).toBe('the database cannot be reached: the request did not run; try again once the database is back');
  });
  it('a read-only database says nothing was written', () => {
    const e = toAwsError(Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }), ctx, subject);
    expect(e.code).toBe('InternalServerException');
    expect(e.message).toMatch(/^the database is read-only: nothing was written/);
  });
  it('any other unforeseen error keeps AWS\'s generic text', () => {
    const e = toAwsError(new Error('boom at /work/secret/path'), ctx, subject);
    expect(e.code).toBe('InternalServerException');
    expect(e.message).toBe('Unexpected error during processing of request.');
  });
});
