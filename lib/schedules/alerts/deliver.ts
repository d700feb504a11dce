/**
 * Sending one message to one channel (SPEC §17): a webhook (Standard Webhooks, signed with the
 * channel's own secret), a Slack-compatible incoming webhook (`{text, blocks}`), or mail over SMTP
 * with nodemailer (plain text and HTML parts). Every destination — a URL's host, an SMTP host — obeys
 * SPEC §13.1's rules (checked after DNS resolution, `SCHEDULER_HTTP_ALLOWED_HOSTS`), and the
 * connection goes to the checked address. Never throws for a failed send: the answer says what the
 * channel answered.
 */
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { openSecret } from '../../auth';
import type { HttpAllowList } from '../../config';
import { toError } from '../../errors';
import { resolveDestination, sendHttpRequest, WEBHOOK_USER_AGENT, type DeliveryPool, type HostResolver } from '../../targets';
import type { AlertChannelType } from './contract';
import type { RenderedAlert } from './message';

/** What a send needs from its process (the worker's edge, or the web process for Send test). */
export interface AlertDeliveryDeps {
  pool: DeliveryPool;
  allowList: HttpAllowList;
  /** SCHEDULER_PUBLIC_URL: the base of the schedule links. */
  publicUrl: string;
  resolve?: HostResolver;
}

/** A channel as stored (`alert_channels`). */
export interface StoredChannel {
  id: string;
  type: string;
  config: unknown;
  sealed: unknown;
}

/** What the channel answered: `status` the HTTP status or SMTP reply code, when one came. */
export interface ChannelAnswer {
  ok: boolean;
  status?: number;
  message: string;
  retryable: boolean;
}

/** Each sealed value is bound to its channel and field: moved elsewhere, it does not open. */
export const sealContext = (channelId: string, field: string) => `alert-channel:${channelId}:${field}`;

/** A sealed field of a stored channel, opened; undefined when absent. @throws when it does not open. */
export function openField(c: StoredChannel, field: string): string | undefined {
  const v = (c.sealed as Record<string, unknown> | null)?.[field];
  return typeof v === 'string' ? openSecret(v, sealContext(c.id, field)) : undefined;
}

const HTTP_TIMEOUT_MS = 10_000;
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Send `message` (alert `id`) to channel `c` at instant `now`, in a slot of `deps.pool`. The
 * webhook's `webhook-id` is the alert id (the same on every retry: receivers drop a repeat).
 */
export async function deliverToChannel(c: StoredChannel, id: string, message: RenderedAlert, deps: AlertDeliveryDeps, now: Date): Promise<ChannelAnswer> {
  try {
    return await deps.pool.run(() => send(c, id, message, deps, now));
  } catch (e) {
    return { ok: false, message: toError(e).message.slice(0, 1000), retryable: true };
  }
}

async function send(c: StoredChannel, id: string, message: RenderedAlert, deps: AlertDeliveryDeps, now: Date): Promise<ChannelAnswer> {
  const config = (c.config ?? {}) as Record<string, unknown>;
  switch (c.type as AlertChannelType) {
    case 'webhook': {
      const body = JSON.stringify(message.json);
      const secret = openField(c, 'signing_secret');
      if (!secret) return { ok: false, message: 'the channel has no signing secret', retryable: false };
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, now, body),
      };
      return httpAnswer(await sendHttpRequest({ type: 'http', method: 'POST', url: String(config.url), headers, body }, { allowList: deps.allowList, timeoutMs: HTTP_TIMEOUT_MS, resolve: deps.resolve }));
    }
    case 'slack': {
      const url = openField(c, 'url');
      if (!url) return { ok: false, message: 'the channel has no URL', retryable: false };
      const body = JSON.stringify(message.slack);
      const headers = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
      return httpAnswer(await sendHttpRequest({ type: 'http', method: 'POST', url, headers, body }, { allowList: deps.allowList, timeoutMs: HTTP_TIMEOUT_MS, resolve: deps.resolve }));
    }
    case 'email':
      return sendMail(c, config, id, message, deps);
    default:
      return { ok: false, message: `unknown channel type ${c.type}`, retryable: false };
  }
}

function httpAnswer({ result, retryable }: Awaited<ReturnType<typeof sendHttpRequest>>): ChannelAnswer {
  const r = result as { http_status?: number; response_excerpt?: string; error?: string; message?: string };
  if (!('error' in r) || !r.error) return { ok: true, status: r.http_status, message: `HTTP ${r.http_status}${r.response_excerpt ? `: ${r.response_excerpt.slice(0, 200)}` : ''}`, retryable: false };
  return { ok: false, ...(r.http_status !== undefined ? { status: r.http_status } : {}), message: `${r.error}: ${r.message ?? ''}${r.response_excerpt ? ` — ${r.response_excerpt.slice(0, 200)}` : ''}`.slice(0, 1000), retryable };
}

/** Mail over SMTP (nodemailer) to the checked address of `host`, the name kept for TLS. */
async function sendMail(c: StoredChannel, config: Record<string, unknown>, id: string, message: RenderedAlert, deps: AlertDeliveryDeps): Promise<ChannelAnswer> {
  const host = String(config.host);
  const destination = await resolveDestination(new URL(`smtp://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`), deps.allowList, deps.resolve);
  if (!destination.ok) return { ok: false, message: `${destination.error}: ${destination.message}`, retryable: destination.error !== 'destination_refused' };
  const tls = String(config.tls);
  const user = typeof config.user === 'string' && config.user ? config.user : undefined;
  const transport = nodemailer.createTransport({
    host: destination.addresses[0].address,
    port: Number(config.port),
    secure: tls === 'tls',
    requireTLS: tls === 'starttls',
    ignoreTLS: tls === 'none',
    tls: { servername: host },
    ...(user ? { auth: { user, pass: openField(c, 'password') ?? '' } } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail({
      from: String(config.from),
      to: (config.to as string[]).join(', '),
      subject: message.title,
      text: message.text,
      html: message.html,
      messageId: `<${id}@scheduler.alerts>`,
    });
    const code = Number(/^(\d{3})/.exec(info.response ?? '')?.[1]);
    return { ok: true, ...(code ? { status: code } : {}), message: String(info.response ?? 'accepted').slice(0, 1000), retryable: false };
  } catch (e) {
    const err = e as Error & { responseCode?: number; response?: string; code?: string };
    const code = err.responseCode;
    // SMTP: a 5xx reply is permanent (RFC 5321 §4.2.1); a 4xx reply or a broken connection may pass later.
    return { ok: false, ...(code ? { status: code } : {}), message: (err.response ?? `${err.code ? `${err.code}: ` : ''}${err.message}`).slice(0, 1000), retryable: !(code && code >= 500) };
  } finally {
    transport.close();
  }
}
