/**
 * SPEC §13.5 `allowed_accounts` for a universal target (SPEC §14), which names no account
 * (decision 314): with an assumed role, the role's account is what is checked; with the worker's own
 * credentials and a list set, the call's account cannot be checked and it is refused.
 */
import { describe, expect, it } from 'vitest';
import type { OrgAws } from '../../../auth';
import { checkAwsArnAtSave, planAwsAuth } from '../..';

const ARN = 'arn:aws:scheduler:::aws-sdk:dynamodb:putItem';
const org = (credentials: 'role' | 'worker', allowedAccounts: string[] | null): OrgAws => ({ org: { id: 'o1', alias: 'acme' }, credentials, externalId: 'ext', allowedAccounts });
const paths = { arn: 'invocation_target.arn', role: 'invocation_target.role_arn' };

describe('allowed_accounts and universal targets', () => {
  it('role mode: a role in an allowed account delivers; a role outside is refused at save and at fire', () => {
    const inside = 'arn:aws:iam::111111111111:role/r';
    const outside = 'arn:aws:iam::222222222222:role/r';
    expect(() => checkAwsArnAtSave(org('role', ['111111111111']), ARN, inside, paths)).not.toThrow();
    expect(planAwsAuth(org('role', ['111111111111']), { arn: ARN, roleArn: inside, scheduleId: 's1', workerOrgs: [] })).toEqual({ ok: true, auth: { kind: 'role', roleArn: inside, externalId: 'ext', sessionName: 's1' } });
    expect(() => checkAwsArnAtSave(org('role', ['111111111111']), ARN, outside, paths)).toThrow(expect.objectContaining({ code: 'invalid_invocation_target', path: 'invocation_target.role_arn' }));
    expect(planAwsAuth(org('role', ['111111111111']), { arn: ARN, roleArn: outside, scheduleId: 's1', workerOrgs: [] })).toMatchObject({ ok: false, result: { error: 'access_denied' } });
  });

  it("worker mode: without a list it delivers with the worker's credentials; with one it is refused (its account cannot be checked)", () => {
    expect(planAwsAuth(org('worker', null), { arn: ARN, roleArn: undefined, scheduleId: 's1', workerOrgs: ['acme'] })).toEqual({ ok: true, auth: { kind: 'worker' } });
    expect(() => checkAwsArnAtSave(org('worker', ['111111111111']), ARN, undefined, paths)).toThrow(expect.objectContaining({ code: 'invalid_invocation_target', path: 'invocation_target.arn' }));
    expect(planAwsAuth(org('worker', ['111111111111']), { arn: ARN, roleArn: undefined, scheduleId: 's1', workerOrgs: ['acme'] })).toMatchObject({ ok: false, result: { error: 'access_denied', message: `${ARN} names an AWS account outside the org's allowed_accounts` } });
  });
});

describe('allowed_accounts and the other ARNs a target names', () => {
  it('an ECS task definition of another account is refused at fire (access_denied), one of an allowed account delivers', () => {
    const cluster = 'arn:aws:ecs:us-east-1:111111111111:cluster/c';
    const role = 'arn:aws:iam::111111111111:role/r';
    const req = (task: string) => ({ arn: cluster, roleArn: role, scheduleId: 's1', workerOrgs: [], also: [task] });
    expect(planAwsAuth(org('role', ['111111111111']), req('arn:aws:ecs:us-east-1:111111111111:task-definition/t:1'))).toMatchObject({ ok: true });
    expect(planAwsAuth(org('role', ['111111111111']), req('arn:aws:ecs:us-east-1:222222222222:task-definition/t:1'))).toMatchObject({ ok: false, result: { error: 'access_denied', message: "arn:aws:ecs:us-east-1:222222222222:task-definition/t:1 names an AWS account outside the org's allowed_accounts" } });
  });
});
