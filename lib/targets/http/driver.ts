/**
 * The `http` driver (SPEC §13.1): webhooks, delivered after the claim commits (at least once; the
 * `webhook-id` is the same on every attempt of an occurrence), signed with the scheduler's signing
 * secrets, to destinations checked at save and again at every attempt. Header values are write-only
 * secrets (SPEC §13.5): sealed with the server key at save, opened only to deliver, masked everywhere else.
 */
import { openSecret, sealSecret } from '../../auth';
import { DomainError, toError } from '../../errors';
import { defineDriver, fireContextOf, type DriverOutcome } from '../driver';
import { checkDestinationAtSave } from './destination';
import { HEADER_MASK, HTTP_TARGET, HTTP_TIMEOUT_SECONDS, HttpStoredTargetSchema, type HttpInvocationTarget, type HttpStoredTarget } from './contract';
import { deliverHttp, templatedBody, WEBHOOK_USER_AGENT, type HttpSentRequest } from './deliver';

/** The additional data a header's sealed value is bound to: its name, lowercase (names are case-insensitive). */
const sealContext = (name: string) => `http-header:${name.toLowerCase()}`;

/**
 * The headers of a sent request whose values a dead letter keeps: the delivery's own, which carry no
 * secret, and only with the value the delivery itself sets (a target may set `content-type` or
 * `user-agent`: then its value is masked like any other). Every other value, the target's headers and
 * `webhook-signature` included, is `HEADER_MASK` (SPEC §13.5: an allow list, nothing by a name's look).
 */
const PUBLIC_SENT_HEADERS: Record<string, ((value: string) => boolean) | undefined> = {
  'webhook-id': () => true,
  'webhook-timestamp': () => true,
  'content-type': (v) => v === 'application/json',
  'user-agent': (v) => v === WEBHOOK_USER_AGENT,
};

/** `headers` (of a request as sent) with every value not in `PUBLIC_SENT_HEADERS` masked. Idempotent. */
function maskSentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, PUBLIC_SENT_HEADERS[name.toLowerCase()]?.(value) ? value : HEADER_MASK]));
}

/** A stored target as every answer shows it (SPEC §13.5): each header's name, its value `HEADER_MASK`; no seal flag. */
function maskTarget<T extends object>(target: T): T {
  const { headers, headers_sealed: _sealed, ...rest } = target as HttpStoredTarget;
  return (headers ? { ...rest, headers: Object.fromEntries(Object.keys(headers).map((name) => [name, HEADER_MASK])) } : rest) as unknown as T;
}

/** The plain header values of a stored target (opened when sealed), by lowercase name. @throws Error when a value does not open. */
function openHeaders(stored: HttpStoredTarget): Map<string, { name: string; sealed: string | null; value: string }> {
  const out = new Map<string, { name: string; sealed: string | null; value: string }>();
  for (const [name, value] of Object.entries(stored.headers ?? {})) {
    out.set(name.toLowerCase(), stored.headers_sealed ? { name, sealed: value, value: openSecret(value, sealContext(name)) } : { name, sealed: null, value });
  }
  return out;
}

/**
 * The target a save stores (SPEC §13.5): every header value sealed with the server key. A value sent as
 * `HEADER_MASK` keeps the value `before` holds under that name (any case); one sent equal to the value
 * stored keeps its sealed text, so an unchanged target stores the same text and does not count as
 * changed. `before`: the row's target when it is an `http` one, else null.
 * @throws DomainError `400 invalid_request_body` (path `invocation_target.headers.<name>`) for a mask
 *   with no stored value under that name.
 */
function sealTarget(target: HttpInvocationTarget, before: unknown): HttpStoredTarget {
  const { headers_sealed: _ignored, ...sent } = target as HttpStoredTarget;
  if (!sent.headers || Object.keys(sent.headers).length === 0) return sent;
  const prior = HttpStoredTargetSchema.safeParse(before);
  const stored = prior.success ? openHeaders(prior.data) : new Map<string, { name: string; sealed: string | null; value: string }>();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers)) {
    const kept = stored.get(name.toLowerCase());
    if (value === HEADER_MASK) {
      if (!kept) {
        throw new DomainError('invalid_request_body', `header "${name}" is sent as "${HEADER_MASK}", which keeps a stored value, but this target has none under that name: send its value`, {
          path: `invocation_target.headers.${name}`,
        });
      }
      headers[name] = kept.sealed ?? sealSecret(kept.value, sealContext(name));
    } else headers[name] = kept?.sealed != null && kept.value === value ? kept.sealed : sealSecret(value, sealContext(name));
  }
  return { ...sent, headers, headers_sealed: true };
}

export const httpDriver = defineDriver<HttpInvocationTarget, HttpSentRequest, 'signingSecrets'>({
  contract: HTTP_TARGET,
  mode: 'after-commit',
  needs: ['signingSecrets'],
  /** The stored target with its header values opened (SPEC §13.5), for delivery only. */
  parse(stored) {
    const parsed = HttpStoredTargetSchema.safeParse(stored);
    if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'it is not valid' };
    const { headers_sealed: _sealed, ...target } = parsed.data;
    if (!parsed.data.headers_sealed) return { ok: true, target };
    try {
      return { ok: true, target: { ...target, headers: Object.fromEntries([...openHeaders(parsed.data).values()].map((h) => [h.name, h.value])) } };
    } catch (e) {
      return { ok: false, message: `its header values do not open: ${toError(e).message}` };
    }
  },
  attemptMs: (stored) => ((stored as { timeout_seconds?: number } | null)?.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default) * 1000,
  /**
   * SPEC §12.3, §13.5: a dead letter (and the SQS body) keeps the request as sent, but with every header
   * value masked except the delivery's own public ones (`webhook-id`, `webhook-timestamp`, its
   * `content-type` and `user-agent`); a stored target is shown with every header value masked.
   */
  redact: {
    sent: (request) => ({ ...request, headers: maskSentHeaders(request.headers) }),
    target: maskTarget,
  },
  /** SPEC §13.4: the body as sent (templated in its serialized text), parsed back; headers stay as stored (sealed). */
  templated(stored, attributes) {
    const t = stored as { body?: unknown };
    return t.body === undefined ? stored : { ...t, body: JSON.parse(templatedBody(t.body, attributes)) };
  },
  seal: sealTarget,
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
