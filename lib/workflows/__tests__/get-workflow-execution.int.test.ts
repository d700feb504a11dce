/**
 * `getWorkflowExecution` (the execution page a run's history links to) against a real database:
 * the execution as listed, `execution_not_found` for an unknown id, and the
 * caller's access to the workflow blob (a stranger gets `not_found`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';
import { createExecutionByRef, getWorkflowExecution, listWorkflowExecutions } from '..';

let db: Db;
let cleanup: () => Promise<void>;
let user: Actor;
let proceduresRevisionId: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined);
  user = { type: 'user', id: ctx.userId, roleCap: null };
  proceduresRevisionId = ctx.proceduresRevisionId;
});
afterAll(async () => cleanup());

describe('getWorkflowExecution', () => {
  it('answers the execution as list_workflow_executions lists it', async () => {
    const made = await createExecutionByRef(db, {
      actor: user,
      revisionId: proceduresRevisionId,
      session: 'nightly-batch',
      workflow: { definition: 'triage' },
      inputData: [{ alias: 'ticket_window', value: { hours: 6 } }],
      description: 'opened from a run',
      now: new Date(),
      limits: TEST_LIMITS,
    });
    const got = await getWorkflowExecution(db, { actor: user, revisionId: proceduresRevisionId, executionId: made.id });
    const { executions } = await listWorkflowExecutions(db, { actor: user, revisionId: proceduresRevisionId });
    expect(got).toEqual(executions.find((e) => e.id === made.id));
    expect(got).toMatchObject({ id: made.id, description: 'opened from a run', input_data: [{ alias: 'ticket_window', value: { hours: 6 } }] });
  });

  it('refuses an unknown execution with execution_not_found and a stranger with not_found', async () => {
    await expect(getWorkflowExecution(db, { actor: user, revisionId: proceduresRevisionId, executionId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      code: 'execution_not_found',
    });
    const [any] = (await listWorkflowExecutions(db, { actor: user, revisionId: proceduresRevisionId })).executions;
    const stranger: Actor = { type: 'user', id: 'no-such-user', roleCap: null };
    await expect(getWorkflowExecution(db, { actor: stranger, revisionId: proceduresRevisionId, executionId: any.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});
