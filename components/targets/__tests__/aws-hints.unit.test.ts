/**
 * The AWS target form's hints say what applies (SPEC §13.5, §14): the role ARN by the org's AWS
 * credentials mode, the input of a universal target as its action's parameters.
 */
import { describe, expect, it } from 'vitest';
import { parseUniversalArn } from '@/lib/schedules/contract';
import { roleHint, universalInputHint } from '../form-text';

describe('AWS target hints', () => {
  it('the role ARN: required and assumed in role mode, only stored in worker mode, both said when unknown', () => {
    expect(roleHint('role')).toBe('Required: every delivery assumes this role (STS AssumeRole with the org’s external id, shown on its admin page).');
    expect(roleHint('worker')).toBe('Optional, stored with the target: this org delivers with the worker’s own AWS credentials.');
    expect(roleHint(undefined)).toContain('when the org’s AWS credentials are “role” (the default)');
  });

  it('a universal target\'s input: required, the action\'s parameters as a JSON object, never the default event', () => {
    const u = parseUniversalArn('arn:aws:scheduler:::aws-sdk:dynamodb:putItem')!;
    expect(universalInputHint(u)).toBe('Required: the parameters of dynamodb:putItem as a JSON object, the AWS SDK command’s input as AWS documents it (never the default event).');
  });
});
