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

/** `invocation_target` of an `http` schedule (SPEC §13.1). */
export const HttpInvocationTargetSchema = z
  .object({
    url: z.string().min(1).max(URL_MAX_LENGTH, `url must be at most ${URL_MAX_LENGTH} characters`),
    method: z.enum(HTTP_METHODS).optional(),
    headers: z
      .record(z.string(), z.string().max(HTTP_HEADER_VALUE_MAX, `a header value must be at most ${HTTP_HEADER_VALUE_MAX} characters`))
      .optional(),
    /** Any JSON value (a string too: what the EventBridge API stored as text before this shape). */
    body: JsonValueSchema.optional(),
    timeout_seconds: z.number().int().min(HTTP_TIMEOUT_SECONDS.min).max(HTTP_TIMEOUT_SECONDS.max).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const problem = webhookUrlProblem(t.url);
    if (problem) refuse(ctx, problem, ['url']);
    const names = Object.keys(t.headers ?? {});
    if (names.length > HTTP_HEADERS_MAX) ctx.addIssue({ code: 'custom', message: `at most ${HTTP_HEADERS_MAX} headers`, path: ['headers'] });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `"${name.slice(0, 64)}" is not a valid header name`, path: ['headers', name] });
      else if ((RESERVED_HTTP_HEADERS as readonly string[]).includes(lower) || lower.startsWith('proxy-')) {
        ctx.addIssue({ code: 'custom', message: `header "${name}" is set by the delivery and cannot be configured`, path: ['headers', name] });
      } else if (seen.has(lower)) ctx.addIssue({ code: 'custom', message: `header "${name}" is given twice (names are case-insensitive)`, path: ['headers', name] });
      else if (!HEADER_VALUE.test(t.headers![name])) ctx.addIssue({ code: 'custom', message: 'a header value must not contain CR, LF or NUL', path: ['headers', name] });
      seen.add(lower);
    }
    if (t.body !== undefined && utf8Length(JSON.stringify(t.body)) > PAYLOAD_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `body must be at most ${PAYLOAD_MAX_BYTES / 1024} KiB serialized`, path: ['body'] });
    }
  });
export type HttpInvocationTarget = z.infer<typeof HttpInvocationTargetSchema>;

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
