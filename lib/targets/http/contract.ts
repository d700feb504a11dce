/**
 * The `http` target type's contract (SPEC §13.1): webhooks signed per Standard Webhooks, the `result`
 * shapes their runs record, and their words. Universal (no I/O, no Node import): the New Schedule
 * form, the API and the CLI share it.
 *
 * Structural problems (wrong type, unknown key, a bound) are plain zod issues (`400
 * invalid_request_body`); rules with their own SPEC code are custom issues carrying
 * `params.code: 'invalid_invocation_target'` (`refuse`).
 */
import { z } from 'zod';
import { JsonValueSchema } from '../../workflows/contract';
import { addressedBy, defineTargetContract, detailWords, PAYLOAD_MAX_BYTES, refuse, RepeatedDelivery, utf8Length } from '../define';

export const HTTP_METHODS = ['POST', 'PUT'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `timeout_seconds` bounds (inclusive) and default (SPEC §13.1). */
export const HTTP_TIMEOUT_SECONDS = { min: 1, max: 30, default: 10 } as const;
export const URL_MAX_LENGTH = 2048;
/** Most custom headers on one target; longest header value (characters). */
export const HTTP_HEADERS_MAX = 50;
export const HTTP_HEADER_VALUE_MAX = 8192;

/**
 * Headers a target may not set (lowercase): the Standard Webhooks headers are the signature's, and
 * the rest describe the connection, which the delivery owns.
 */
export const RESERVED_HTTP_HEADERS = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  // SPEC §16.1: the attempt's check-in URL, set by the delivery.
  'scheduler-checkin-url',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
] as const;

/** RFC 9110 token: a header field name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** A field value without CR, LF or NUL (no header injection). */
const HEADER_VALUE = /^[^\r\n\0]*$/;
/**
 * A field value an HTTP request can carry: octets, i.e. characters up to U+00FF (RFC 9110 field values
 * are visible ASCII plus obs-text; Node sends each character as one byte and refuses anything above).
 */
const HEADER_OCTETS = /^[\u0000-\u00ff]*$/;

/**
 * What every answer shows for a header's value (SPEC §13.5: header values are write-only), and what an
 * edit sends to keep a stored value. Above U+00FF, so it can never be a real header value.
 */
export const HEADER_MASK = '••••';

/** Why a webhook URL is refused, or null (SPEC §13.1: `http` or `https`, ≤ 2048 chars). Pure. */
export function webhookUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http:// or https:// URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `url must use http or https, not ${parsed.protocol.replace(/:$/, '').slice(0, 20)}`;
  if (!parsed.hostname) return 'url must name a host';
  if (url !== url.trim()) return 'url must not begin or end with spaces';
  if (parsed.username || parsed.password) return 'url must not carry a user name or password; send credentials in headers';
  return null;
}

const httpTargetFields = {
  url: z.string().min(1).max(URL_MAX_LENGTH, `url must be at most ${URL_MAX_LENGTH} characters`),
  method: z.enum(HTTP_METHODS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Any JSON value (a string too: what the EventBridge API stored as text before this shape). */
  body: JsonValueSchema.optional(),
  timeout_seconds: z.number().int().min(HTTP_TIMEOUT_SECONDS.min).max(HTTP_TIMEOUT_SECONDS.max).optional(),
};

/**
 * The rules of a webhook target beyond its keys' types (SPEC §13.1). A header value is at most
 * `HTTP_HEADER_VALUE_MAX` characters up to U+00FF without CR, LF or NUL, or `HEADER_MASK` (an edit
 * keeping the stored value). `sealed`: the values are sealed secrets (a stored target, SPEC §13.5),
 * checked by whoever opens them.
 */
function checkHttpTarget(t: z.infer<z.ZodObject<typeof httpTargetFields>>, ctx: z.RefinementCtx, sealed: boolean): void {
  const problem = webhookUrlProblem(t.url);
  if (problem) refuse(ctx, problem, ['url']);
  const names = Object.keys(t.headers ?? {});
  if (names.length > HTTP_HEADERS_MAX) ctx.addIssue({ code: 'custom', message: `at most ${HTTP_HEADERS_MAX} headers`, path: ['headers'] });
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    const value = t.headers![name];
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['headers', name] });
    if (!HEADER_NAME.test(name)) issue(`"${name.slice(0, 64)}" is not a valid header name`);
    else if ((RESERVED_HTTP_HEADERS as readonly string[]).includes(lower) || lower.startsWith('proxy-')) issue(`header "${name}" is set by the delivery and cannot be configured`);
    else if (seen.has(lower)) issue(`header "${name}" is given twice (names are case-insensitive)`);
    else if (sealed || value === HEADER_MASK) {
      // a sealed value (opened at delivery) or the mask (the save keeps the stored value)
    } else if (value.length > HTTP_HEADER_VALUE_MAX) issue(`a header value must be at most ${HTTP_HEADER_VALUE_MAX} characters`);
    else if (!HEADER_VALUE.test(value)) issue('a header value must not contain CR, LF or NUL');
    else if (!HEADER_OCTETS.test(value)) {
      const at = [...value].findIndex((c) => c.codePointAt(0)! > 0xff);
      const cp = [...value][at].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      issue(`a header value may hold only characters up to U+00FF (HTTP sends one byte a character); character ${at + 1} is U+${cp}: percent-encode or base64 it`);
    }
    seen.add(lower);
  }
  if (t.body !== undefined && utf8Length(JSON.stringify(t.body)) > PAYLOAD_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', message: `body must be at most ${PAYLOAD_MAX_BYTES / 1024} KiB serialized`, path: ['body'] });
  }
}

/** `invocation_target` of an `http` schedule as sent (SPEC §13.1). */
export const HttpInvocationTargetSchema = z
  .object(httpTargetFields)
  .strict()
  .superRefine((t, ctx) => checkHttpTarget(t, ctx, false));
export type HttpInvocationTarget = z.infer<typeof HttpInvocationTargetSchema>;

/**
 * `invocation_target` of an `http` schedule as a row holds it (SPEC §13.5): as sent, or with every
 * header value sealed with the server key and `headers_sealed: true` (the driver seals at save and
 * opens at delivery; rows saved before sealing hold plain values and no flag). Never in an answer:
 * answers show every value as `HEADER_MASK`.
 */
export const HttpStoredTargetSchema = z
  .object({ ...httpTargetFields, headers_sealed: z.literal(true).optional() })
  .strict()
  .superRefine((t, ctx) => checkHttpTarget(t, ctx, t.headers_sealed === true));
export type HttpStoredTarget = z.infer<typeof HttpStoredTargetSchema>;

// ---------------------------------------------------------------------------------------------
// run results (SPEC §13.1)

/** `result.error` of a failed webhook attempt (SPEC §13.1). */
export const HTTP_DELIVERY_ERRORS = ['http_error', 'timeout', 'connection_failed', 'destination_refused'] as const;
export type HttpDeliveryError = (typeof HTTP_DELIVERY_ERRORS)[number];

/** Longest `response_excerpt`, in bytes of the answer's body (SPEC §13.1: 1 KiB). */
export const RESPONSE_EXCERPT_MAX_BYTES = 1024;

/**
 * `result` of a webhook attempt (SPEC §13.1).
 * - a 2xx answer within the timeout: `{http_status, response_excerpt}`;
 * - any other answer (a redirect included: never followed): `{error: "http_error", message,
 *   http_status, response_excerpt}`;
 * - no answer: `{error: "timeout" | "connection_failed" | "destination_refused" | "http_error", message}`.
 */
export const HttpResultSchema = z.union([
  z.strictObject({ http_status: z.int(), response_excerpt: z.string(), repeated_delivery: RepeatedDelivery }),
  z.strictObject({ error: z.literal('http_error'), message: z.string(), http_status: z.int().optional(), response_excerpt: z.string().optional(), repeated_delivery: RepeatedDelivery }),
  z.strictObject({ error: z.enum(HTTP_DELIVERY_ERRORS.filter((e): e is Exclude<HttpDeliveryError, 'http_error'> => e !== 'http_error')), message: z.string(), repeated_delivery: RepeatedDelivery }),
]);
export type HttpResult = z.infer<typeof HttpResultSchema>;


// ---------------------------------------------------------------------------------------------
// words (SPEC §10)

/** "Webhook POST https://example.com/hook" (SPEC §13.1; POST when no method is set). */
export function webhookLabel(t: Pick<HttpInvocationTarget, 'url' | 'method'>): string {
  return `Webhook ${t.method ?? 'POST'} ${t.url}`;
}

/** What each fire of a webhook sends: "default event · 2 headers · 10 s timeout". */
function webhookDetail(t: HttpInvocationTarget): string {
  const headers = Object.keys(t.headers ?? {}).length;
  return detailWords(
    t.body === undefined ? 'default event' : 'custom body',
    headers > 0 && `${headers} header${headers === 1 ? '' : 's'}`,
    `${t.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default} s timeout`,
  );
}

/** The `http` target type (SPEC §13.1). */
export const HTTP_TARGET = defineTargetContract({
  type: 'http',
  save: HttpInvocationTargetSchema,
  // As answered (masked): the sealed row form (`HttpStoredTargetSchema`) is the driver's alone.
  stored: HttpInvocationTargetSchema,
  results: HttpResultSchema.options,
  ...addressedBy('url'),
  words: {
    title: 'Webhook',
    noun: 'a webhook',
    choice: 'Send a signed HTTP request to a URL.',
    intro: 'Each fire sends a POST or PUT to this URL, signed with the scheduler’s signing secret (Standard Webhooks).',
    label: webhookLabel,
    detail: webhookDetail,
  },
});
