/**
 * The `http` driver (SPEC §13.1): webhooks, delivered after the claim commits (at least once; the
 * `webhook-id` is the same on every attempt of an occurrence), signed with the scheduler's signing
 * secrets, to destinations checked at save and again at every attempt.
 */
import { defineDriver, fireContextOf, type DriverOutcome } from '../driver';
import { checkDestinationAtSave } from './destination';
import { HTTP_TARGET, HTTP_TIMEOUT_SECONDS, HttpInvocationTargetSchema, type HttpInvocationTarget } from './contract';
import { deliverHttp, type HttpSentRequest } from './deliver';

/** Header names whose values a dead letter never carries: credentials and signatures (any case). */
const SECRET_HEADER = /auth|token|secret|key|cookie|password|passwd|session|signature|credential/i;
/** What stands for a secret value a dead letter leaves out. */
export const REDACTED = '[redacted]';

/** `headers` with every credential or signature value (by its name) replaced by `[redacted]`. */
function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
}

export const httpDriver = defineDriver<HttpInvocationTarget, HttpSentRequest, 'signingSecrets'>({
  contract: HTTP_TARGET,
  mode: 'after-commit',
  needs: ['signingSecrets'],
  parse(stored) {
    const parsed = HttpInvocationTargetSchema.safeParse(stored);
    return parsed.success ? { ok: true, target: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'it is not valid' };
  },
  attemptMs: (stored) => ((stored as { timeout_seconds?: number } | null)?.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default) * 1000,
  /**
   * SPEC §12.3: a dead letter keeps the request as sent, but every header whose name speaks of a
   * credential or a signature (`Authorization`, `X-Api-Key`, `Cookie`, `webhook-signature`…) is
   * `[redacted]`, so the queue's readers and the dead-letter list never learn the receiver's secrets;
   * the same for the stored target's headers when nothing was sent.
   */
  redact: {
    sent: (request) => ({ ...request, headers: redactHeaders(request.headers) }),
    target: (target) => (target.headers ? { ...target, headers: redactHeaders(target.headers) } : target),
  },
  async checkBeforeSave(sent, deps) {
    const url = (sent as { url?: unknown }).url;
    if (typeof url === 'string') await checkDestinationAtSave(url, deps.allowList, deps.resolve);
  },
  async deliver({ target, ctx }, env): Promise<DriverOutcome> {
    const [fire, attributes] = await Promise.all([fireContextOf(ctx), ctx.attributes()]);
    const out = await deliverHttp({ target, fire, attributes, signingSecrets: env.facts.signingSecrets, allowList: env.allowList, pool: env.pool, resolve: env.resolve });
    return { status: out.status, result: out.result, executionId: null, request: out.request, retryable: out.retryable };
  },
});
