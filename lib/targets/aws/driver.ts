/**
 * The `aws` driver (SPEC §13.2): one AWS SDK call per attempt, chosen by the target ARN's service,
 * delivered after the claim commits (at least once; FIFO queues and topics, Step Functions and ECS
 * de-duplicate by the occurrence id).
 */
import { substituteContextAttributes } from '../context-attributes';
import { defineDriver, fireContextOf, type DriverOutcome } from '../driver';
import { AWS_TARGET, AwsInvocationTargetSchema, type AwsInvocationTarget } from './contract';
import { deliverAws, type AwsSentRequest } from './deliver';

/** The AWS SDK's own timeouts and retries bound an aws attempt; its lease assumes this much, in ms. */
const AWS_ATTEMPT_MS = 60_000;

export const awsDriver = defineDriver<AwsInvocationTarget, AwsSentRequest, never>({
  contract: AWS_TARGET,
  mode: 'after-commit',
  needs: [],
  /** The product's schema: an ARN of a service SPEC §13.2 does not deliver to is `unsupported_target`. */
  parse(stored) {
    const parsed = AwsInvocationTargetSchema.safeParse(stored);
    return parsed.success ? { ok: true, target: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'it is not valid' };
  },
  attemptMs: () => AWS_ATTEMPT_MS,
  /** An AWS request carries no credential (the SDK signs it), nor does the target: both are kept as they are. */
  redact: { sent: (request) => request, target: (target) => target },
  async deliver({ target, ctx }, env): Promise<DriverOutcome> {
    // SPEC §13.4: `input` is templated at each attempt; the default event (no input) never is.
    const input = target.input === undefined ? undefined : substituteContextAttributes(target.input, await ctx.attributes());
    const out = await deliverAws({ target: input === undefined ? target : { ...target, input }, fire: await fireContextOf(ctx), pool: env.pool });
    return { status: out.status, result: out.result, executionId: null, request: out.request, retryable: out.retryable };
  },
});
