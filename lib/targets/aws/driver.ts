/**
 * The `aws` driver (SPEC §13.2): one AWS SDK call per attempt, chosen by the target ARN's service,
 * delivered after the claim commits (at least once; FIFO queues and topics, Step Functions and ECS
 * de-duplicate by the occurrence id).
 */
import { substituteContextAttributes, type ContextAttributes } from '../context-attributes';
import { defineDriver, fireContextOf, type DriverOutcome } from '../driver';
import { AWS_TARGET, AwsInvocationTargetSchema, type AwsInvocationTarget } from './contract';
import { readOrgAwsIn } from '../../auth';
import { checkAwsArnAtSave, planAwsAuth } from './credentials';
import { deliverAws, type AwsSentRequest } from './deliver';

/** The AWS SDK's own timeouts and retries bound an aws attempt; its lease assumes this much, in ms. */
const AWS_ATTEMPT_MS = 60_000;

/** ARNs a target names besides its own and its role's, with their paths (SPEC §13.5 checks each): an ECS task definition. */
function nestedArns(target: AwsInvocationTarget): { arn: string; path: string }[] {
  const task = target.ecs_parameters?.task_definition_arn;
  return task ? [{ arn: task, path: 'invocation_target.ecs_parameters.task_definition_arn' }] : [];
}

/** SPEC §13.4: `input` templated at each attempt; the default event (no input) never is. */
function withInput<T extends { input?: string }>(target: T, attributes: ContextAttributes): T {
  return target.input === undefined ? target : { ...target, input: substituteContextAttributes(target.input, attributes) };
}

export const awsDriver = defineDriver<AwsInvocationTarget, AwsSentRequest, 'aws'>({
  contract: AWS_TARGET,
  mode: 'after-commit',
  // SPEC §13.5: every delivery authenticates as its org's settings say.
  needs: ['aws'],
  /** The product's schema: an ARN of a service SPEC §13.2 does not deliver to is `unsupported_target`. */
  parse(stored) {
    const parsed = AwsInvocationTargetSchema.safeParse(stored);
    return parsed.success ? { ok: true, target: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'it is not valid' };
  },
  attemptMs: () => AWS_ATTEMPT_MS,
  /** SPEC §13.5: `role_arn` required in `role` mode; the ARN and the role within `allowed_accounts`. */
  async checkAtSave(tx, _actor, target, { orgId }) {
    checkAwsArnAtSave(await readOrgAwsIn(tx, orgId), target.arn, target.role_arn, { arn: 'invocation_target.arn', role: 'invocation_target.role_arn' }, nestedArns(target));
    return { target };
  },
  /** An AWS request carries no credential (the SDK signs it), nor does the target: both are kept as they are. */
  redact: { sent: (request) => request, target: (target) => target },
  templated: (stored, attributes) => withInput(stored as { input?: string }, attributes),
  /**
   * SPEC §13.5: the org's credentials decide how (`planAwsAuth`); a refusal (`access_denied`, or
   * `assume_role_failed` without a `role_arn`) is a failed attempt that sent nothing.
   */
  async deliver({ target, ctx }, env): Promise<DriverOutcome> {
    const plan = planAwsAuth(env.facts.aws, { arn: target.arn, roleArn: target.role_arn, scheduleId: ctx.scheduleId, workerOrgs: env.awsWorkerCredentialsOrgs, also: nestedArns(target).map((a) => a.arn) });
    if (!plan.ok) return { status: 'invocation_error', result: plan.result, executionId: null, request: null, retryable: plan.retryable };
    const sent = target.input === undefined ? target : withInput(target, await ctx.attributes());
    const out = await deliverAws({ target: sent, fire: await fireContextOf(ctx), pool: env.pool, auth: plan.auth });
    return { status: out.status, result: out.result, executionId: null, request: out.request, retryable: out.retryable };
  },
});
