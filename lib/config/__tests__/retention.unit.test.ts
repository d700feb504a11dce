/**
 * SPEC §9 retention settings as the environment gives them: `SCHEDULER_RUN_RETENTION_DAYS` and
 * `WORKFLOW_EXECUTION_RETENTION_DAYS` (docs/decisions.md 116), both default 30 days, at least 1.
 */
import { expect, it } from 'vitest';
import { loadConfig } from '../env';

it('execution retention defaults to 30 days, reads WORKFLOW_EXECUTION_RETENTION_DAYS, and refuses less than 1', () => {
  expect(loadConfig({}).limits).toMatchObject({ runRetentionDays: 30, executionRetentionDays: 30 });
  expect(loadConfig({ WORKFLOW_EXECUTION_RETENTION_DAYS: '7', SCHEDULER_RUN_RETENTION_DAYS: '90' }).limits).toMatchObject({ runRetentionDays: 90, executionRetentionDays: 7 });
  expect(() => loadConfig({ WORKFLOW_EXECUTION_RETENTION_DAYS: '0' })).toThrow('WORKFLOW_EXECUTION_RETENTION_DAYS: must be an integer ≥ 1, got "0"');
});
