/**
 * `http` targets (SPEC §13.1): one webhook request per attempt, signed per the Standard Webhooks
 * specification, sent through the process's bounded pool to the one address the destination check
 * approved. Success is a 2xx answer within the timeout; redirects are never followed.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { HttpAllowList } from '../../config';
import { toError } from '../../errors';
import { sdkRegion } from '../aws/clients';
import { substituteContextAttributes, type ContextAttributes } from '../context-attributes';
import { defaultEvent, occurrenceId } from '../default-event';
import type { DeliveryOutcome, FireContext } from '../driver';
import type { DeliveryPool } from '../pool';
import { HTTP_TIMEOUT_SECONDS, RESPONSE_EXCERPT_MAX_BYTES, type HttpInvocationTarget, type HttpResult } from './contract';
import { resolveDestination, type HostResolver, type ResolvedAddress } from './destination';

/** What an http attempt sent (or, when refused before connecting, would have sent). */
export interface HttpSentRequest {
  type: 'http';
  method: 'POST' | 'PUT';
  url: string;
  /** Every header sent, names lowercase, the Standard Webhooks ones included. */
  headers: Record<string, string>;
  /** The body exactly as sent (and as signed). */
  body: string;
}

/** Sent unless the target sets its own `user-agent`. */
export const WEBHOOK_USER_AGENT = 'scheduler-webhooks/1';

export interface HttpDeliveryRequest {
  target: HttpInvocationTarget;
  fire: FireContext;
  /**
   * The scheduler's signing secrets (`whsec_…`) that sign now: the current one and any retired less
   * than 24 h ago (SPEC §13.1). Each adds one `v1,` signature; at least one is required.
   */
  signingSecrets: string[];
  /**
   * Destinations reachable although private, loopback, … (SPEC §13.1): the process's
   * `SCHEDULER_HTTP_ALLOWED_HOSTS`, passed in by its edge.
   */
  allowList: HttpAllowList;
  /** The process's delivery pool (`createDeliveryPool`), whose slot the attempt waits for. */
  pool: DeliveryPool;
  /** Default: the system resolver (`dns.lookup`, every address). Tests pass their own. */
  resolve?: HostResolver;
  /** The `webhook-timestamp` clock. Default: the system clock. */
  now?: () => Date;
  /**
   * SPEC §13.4, §16.1: the attempt's context attributes, substituted in `body` (its serialized JSON
   * text); their `checkinUrl` is also sent as the `scheduler-checkin-url` header. Absent: no
   * substitution, no header (tools and tests that build a request without the engine).
   */
  attributes?: ContextAttributes;
}

/**
 * SPEC §13.4: a target's `body` serialized, then templated in that text with `attributes` (when
 * given): what a webhook sends, and — parsed back — what its run records (the driver's `templated`).
 */
export function templatedBody(body: unknown, attributes: ContextAttributes | undefined): string {
  const text = JSON.stringify(body);
  return attributes ? substituteContextAttributes(text, attributes) : text;
}

/**
 * The webhook request of one attempt, built but not sent: `body` (the target's, else the default
 * event of SPEC §13.3, serialized once), `content-type: application/json`, the target's headers,
 * and `webhook-id` (= `occurrenceId`, the same on every attempt of the occurrence),
 * `webhook-timestamp` (epoch seconds of `now`), `webhook-signature` (space-separated `v1,<base64>`,
 * one per secret). Throws when `signingSecrets` is empty or a secret is malformed.
 */
export async function buildWebhookRequest(req: HttpDeliveryRequest): Promise<HttpSentRequest> {
  if (req.signingSecrets.length === 0) throw new Error('a webhook needs at least one signing secret');
  const { target, fire } = req;
  const id = occurrenceId(fire);
  // SPEC §13.4: the target's body is templated in its serialized text; the default event never is.
  const body =
    target.body !== undefined
      ? templatedBody(target.body, req.attributes)
      : JSON.stringify(defaultEvent({ ...fire, region: fire.region ?? (await sdkRegion()) }));
  const at = (req.now ?? (() => new Date()))();
  const signature = req.signingSecrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
  for (const [name, value] of Object.entries(target.headers ?? {})) headers[name.toLowerCase()] = value;
  // SPEC §16.1: where the receiver checks in (set after the target's own headers: it cannot be overridden).
  if (req.attributes?.checkinUrl) headers['scheduler-checkin-url'] = req.attributes.checkinUrl;
  headers['webhook-id'] = id;
  headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
  headers['webhook-signature'] = signature;
  return { type: 'http', method: target.method ?? 'POST', url: target.url, headers, body };
}

/**
 * Deliver one attempt to an `http` target (SPEC §13.1). Waits for a pool slot, then within
 * `timeout_seconds` (default 10; DNS, connect, request and the answer's status line all count):
 * resolves the host and checks every address (`destination_refused`), connects to the checked
 * addresses only (the URL's host name still goes in `Host` and TLS SNI, and the certificate is
 * verified against it), sends the signed request, and reads at most 1 KiB of the answer.
 *
 * `result`: `{http_status, response_excerpt}` for a 2xx; `{error: "http_error", message,
 * http_status, response_excerpt}` for any other status (3xx included: not followed); `{error:
 * "timeout" | "connection_failed" | "destination_refused" | "http_error", message}` without an answer.
 * `retryable` is true for a timeout, a failed connection, a broken answer, 408, 429 and 5xx.
 * Never throws for a failed delivery.
 */
export async function deliverHttp(req: HttpDeliveryRequest): Promise<DeliveryOutcome<HttpResult, HttpSentRequest>> {
  const request = await buildWebhookRequest(req);
  const timeoutMs = (req.target.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default) * 1000;
  const { allowList } = req;
  return req.pool.run(async () => {
    const started = performance.now();
    const deadline = started + timeoutMs;
    const result = await attempt(request, allowList, req.resolve, deadline, timeoutMs);
    const ok = 'http_status' in result && !('error' in result);
    return {
      status: ok ? 'success' : 'invocation_error',
      result,
      retryable: !ok && isRetryable(result),
      request,
      deliveryId: request.headers['webhook-id'],
      durationMs: Math.round(performance.now() - started),
    };
  });
}

/**
 * Send one built request (SPEC §13.1's rules: the destination checked after DNS resolution against
 * `allowList`, the connection pinned to the checked addresses, no redirect followed) within
 * `timeoutMs`, outside any pool: the caller holds its slot. For senders other than the target driver
 * (SPEC §17 alert channels). Never throws for a failed request; `retryable` as for a webhook attempt.
 */
export async function sendHttpRequest(request: HttpSentRequest, opts: { allowList: HttpAllowList; timeoutMs: number; resolve?: HostResolver }): Promise<{ result: HttpResult; retryable: boolean }> {
  const result = await attempt(request, opts.allowList, opts.resolve, performance.now() + opts.timeoutMs, opts.timeoutMs);
  return { result, retryable: isRetryable(result) };
}

function isRetryable(result: HttpResult): boolean {
  if (!('error' in result)) return false;
  if (result.error === 'destination_refused') return false;
  if (result.error === 'http_error' && 'http_status' in result && result.http_status !== undefined) {
    const s = result.http_status;
    return s >= 500 || s === 429 || s === 408;
  }
  return true;
}

const TIMED_OUT = Symbol('timed out');

async function attempt(
  request: HttpSentRequest,
  allowList: HttpAllowList,
  resolve: HostResolver | undefined,
  deadline: number,
  timeoutMs: number,
): Promise<HttpResult> {
  const url = new URL(request.url);
  const timeoutMessage = `no answer within ${timeoutMs / 1000} s`;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof TIMED_OUT>((r) => {
    timer = setTimeout(() => r(TIMED_OUT), Math.max(0, deadline - performance.now()));
  });
  try {
    // Resolved once, here: the connection below goes to `destination.address` and nowhere else.
    const destination = await Promise.race([resolveDestination(url, allowList, resolve), expired]);
    if (destination === TIMED_OUT) return { error: 'timeout', message: `${timeoutMessage} (resolving ${url.hostname})` };
    if (!destination.ok) return { error: destination.error, message: destination.message };
    return await send(url, destination.addresses, request, deadline, timeoutMessage);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `lookup` that answers the checked addresses whatever it is asked (no second resolution). With
 * several, Node tries them in turn (`autoSelectFamily`), as it would the resolver's own answer.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

function send(url: URL, addresses: ResolvedAddress[], request: HttpSentRequest, deadline: number, timeoutMessage: string): Promise<HttpResult> {
  return new Promise<HttpResult>((settle) => {
    let status: number | undefined;
    let statusText = '';
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(result);
      out.destroy();
    };
    const answered = () => {
      const excerpt = excerptOf(chunks);
      if (status! >= 200 && status! < 300) return finish({ http_status: status!, response_excerpt: excerpt });
      const what = status! >= 300 && status! < 400 ? 'a redirect, which is not followed' : 'not a 2xx answer';
      finish({ error: 'http_error', message: `HTTP ${status} ${statusText}: ${what}`.replace(/ +:/, ':'), http_status: status!, response_excerpt: excerpt });
    };

    const client = url.protocol === 'https:' ? https : http;
    const out = client.request(url, {
      method: request.method,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: false,
      lookup: pinnedLookup(addresses),
      // The whole attempt has one deadline (below); no socket-level idle timeout of its own.
    });
    const timer = setTimeout(() => {
      // The status line arrived in time: the answer counts with the excerpt read so far.
      if (status !== undefined) answered();
      else finish({ error: 'timeout', message: timeoutMessage });
    }, Math.max(0, deadline - performance.now()));

    out.on('response', (res) => {
      status = res.statusCode ?? 0;
      statusText = res.statusMessage ?? '';
      res.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_EXCERPT_MAX_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_MAX_BYTES) answered();
      });
      res.on('end', answered);
      // The answer's body broke off after its status line: the status still decides.
      res.on('error', answered);
      res.on('aborted', answered);
    });
    out.on('error', (thrown) => {
      if (settled) return;
      const err = toError(thrown) as Error & { code?: string };
      const code = err.code ?? '';
      if (status !== undefined) return answered();
      if (code.startsWith('HPE_')) return finish({ error: 'http_error', message: `the answer is not valid HTTP (${code})` });
      finish({ error: 'connection_failed', message: `${err.message}${code && !err.message.includes(code) ? ` (${code})` : ''}`.slice(0, 1000) });
    });
    out.end(request.body);
  });
}

/** The first 1 KiB of the answer's body as UTF-8 text (an incomplete trailing character is dropped). */
function excerptOf(chunks: Buffer[]): string {
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_MAX_BYTES);
  return new TextDecoder('utf-8').decode(bytes, { stream: true });
}
