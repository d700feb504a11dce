/**
 * Alert channels (SPEC §17): an org's webhook, Slack and email destinations, managed by its admins
 * (the product API, the org admin page). Secrets are write-only: a webhook's signing secret is shown
 * in the answer that made (or rotated) it and never again; a Slack URL and an SMTP password are sealed
 * with the server key like webhook header values (SPEC §13.5) and answered `••••` (an edit sending
 * the mask keeps the stored value). Destinations obey SPEC §13.1 at save and at every send.
 */
import { z } from 'zod';
import { requireOrgRole, sealSecret, type Actor } from '../../auth';
import type { HttpAllowList } from '../../config';
import { inTransaction, type Db, type Tx } from '../../db';
import { DomainError, parseOrRefuse } from '../../errors';
import { isIdShape, newId, normalizeRef } from '../../ids';
import { generateSigningSecret, resolveDestination, type HostResolver } from '../../targets';
import {
  AlertChannelCreateInput,
  EmailChannelConfig,
  SECRET_MASK,
  SlackChannelConfig,
  WebhookChannelConfig,
  type AlertChannel,
  type AlertChannelType,
  AlertChannelUpdateInput,
  type AlertTestAnswer,
} from './contract';
import { deliverToChannel, sealContext, type AlertDeliveryDeps, type StoredChannel } from './deliver';
import { renderAlert, type AlertFacts } from './message';

export interface ChannelScope {
  actor: Actor;
  /** The org, by id or alias. */
  org: string;
}

/**
 * The org `ref` names when the actor's entity is its admin (as for its AWS settings, decision 211):
 * a change also needs a `write` key. @throws `404 not_found`, `403 forbidden`.
 */
async function requireChannelAdmin(tx: Tx, actor: Actor, ref: string, change: boolean) {
  const org = await requireOrgRole(tx, { ...actor, roleCap: null }, ref, 'admin');
  if (change && actor.roleCap === 'read') throw new DomainError('forbidden', "changing the org's alert channels needs a write key");
  return org;
}

type Row = { id: string; name: string; type: string; config: unknown; sealed: unknown; lastStatus: string | null; lastSentAt: Date | null; lastAnswer: unknown; createdAt: Date; updatedAt: Date };

/**
 * A webhook URL as answers show it: a password in it (`https://user:pass@host/…`) masked
 * (`https://user:••••@host/…`, decision 342); a URL without one as it is.
 */
export function maskUrlPassword(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  if (!u.password) return url;
  return `${u.protocol}//${u.username}:${SECRET_MASK}@${u.host}${u.pathname}${u.search}${u.hash}`;
}

/**
 * The webhook URL to store for `sent` (decision 342): a URL whose password is the mask, as answers
 * show it, keeps the stored password (the path, query or fragment may change) when it names the
 * stored URL's origin and user; a masked password for another origin or user has no password to keep
 * and is refused (`400 invalid_request_body`, path `config.url`) rather than stored as the mask itself.
 */
function webhookUrlOf(sent: string, stored: string | null): string {
  if (!URL.canParse(sent)) return sent;
  const u = new URL(sent);
  if (decodeURIComponent(u.password) !== SECRET_MASK) return sent;
  const s = stored !== null && URL.canParse(stored) ? new URL(stored) : null;
  if (!s || !s.password || s.origin !== u.origin || s.username !== u.username) {
    throw new DomainError(
      'invalid_request_body',
      `config.url: a masked password (${SECRET_MASK}) keeps the stored one only for the same user and origin${s?.password ? ` (${s.protocol}//${s.username}:${SECRET_MASK}@${s.host})` : ''}; to change either, send the whole URL with its password`,
      { path: 'config.url' },
    );
  }
  u.password = s.password;
  return u.toString();
}

/** A stored channel as every answer shows it: its config with each secret masked. */
export function toAlertChannel(r: Row): AlertChannel {
  const config = { ...((r.config ?? {}) as Record<string, unknown>) };
  if (r.type === 'webhook' && typeof config.url === 'string') config.url = maskUrlPassword(config.url);
  const sealed = (r.sealed ?? {}) as Record<string, unknown>;
  if (r.type === 'slack') config.url = `${String(config.url_origin ?? '')}/${SECRET_MASK}`;
  delete config.url_origin;
  if (r.type === 'email' && typeof sealed.password === 'string') config.password = SECRET_MASK;
  const answer = r.lastAnswer as { status?: number; message?: string } | null;
  return {
    id: r.id,
    name: r.name,
    type: r.type as AlertChannelType,
    config,
    ...(r.lastStatus === 'ok' || r.lastStatus === 'failing' ? { last_status: r.lastStatus } : {}),
    ...(r.lastSentAt ? { last_sent_at: r.lastSentAt.toISOString() } : {}),
    ...(answer && typeof answer.message === 'string' ? { last_answer: { ...(typeof answer.status === 'number' ? { status: answer.status } : {}), message: answer.message } } : {}),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** SPEC §13.1 at save: the URL's (or SMTP host's) addresses must be allowed. @throws `400 invalid_request_body` at `path`. */
async function checkDestination(url: URL, allowList: HttpAllowList, path: string, resolve?: HostResolver): Promise<void> {
  const d = await resolveDestination(url, allowList, resolve);
  if (!d.ok) throw new DomainError('invalid_request_body', `${path}: ${d.message}`, { path });
}

/** `raw` parsed as `config` of a request, its errors' paths under `config`. */
function parseConfig<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  return (parseOrRefuse(z.strictObject({ config: schema }), { config: raw }) as { config: z.output<S> }).config;
}

/** What a save stores of a config of `type`: `{config, sealed}` (the sealed values bound to `id`), keeping `before`'s secrets where the mask is sent. */
async function storedConfig(
  id: string,
  type: AlertChannelType,
  raw: unknown,
  before: StoredChannel | null,
  allowList: HttpAllowList,
  resolve?: HostResolver,
): Promise<{ config: Record<string, unknown>; sealed: Record<string, unknown> }> {
  const beforeSealed = { ...((before?.sealed ?? {}) as Record<string, unknown>) };
  if (type === 'webhook') {
    const c = parseConfig(WebhookChannelConfig, raw);
    const url = webhookUrlOf(c.url, before ? String(((before.config ?? {}) as Record<string, unknown>).url ?? '') : null);
    await checkDestination(new URL(url), allowList, 'config.url', resolve);
    return { config: { url }, sealed: beforeSealed };
  }
  if (type === 'slack') {
    const c = parseConfig(SlackChannelConfig, raw);
    if (c.url.endsWith(`/${SECRET_MASK}`)) {
      if (!before || typeof beforeSealed.url !== 'string') throw new DomainError('invalid_request_body', 'config.url: send the incoming-webhook URL', { path: 'config.url' });
      // The mask keeps the stored URL only as it was answered: a new origin with the mask is a new URL
      // whose secret part is missing, refused rather than ignored (decision 342).
      const origin = String(((before.config ?? {}) as Record<string, unknown>).url_origin ?? '');
      if (c.url !== `${origin}/${SECRET_MASK}`) throw new DomainError('invalid_request_body', `config.url: the stored URL is kept only when sent as answered (${origin}/${SECRET_MASK}); to change it send the whole new incoming-webhook URL`, { path: 'config.url' });
      return { config: { ...((before.config ?? {}) as Record<string, unknown>) }, sealed: beforeSealed };
    }
    await checkDestination(new URL(c.url), allowList, 'config.url', resolve);
    return { config: { url_origin: new URL(c.url).origin }, sealed: { url: sealSecret(c.url, sealContext(id, 'url')) } };
  }
  const c = parseConfig(EmailChannelConfig, raw);
  const host = c.host.toLowerCase();
  await checkDestination(new URL(`smtp://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`), allowList, 'config.host', resolve);
  const { password, ...rest } = c;
  const sealed: Record<string, unknown> = {};
  if (password === SECRET_MASK) {
    if (typeof beforeSealed.password === 'string') sealed.password = beforeSealed.password;
  } else if (password) sealed.password = sealSecret(password, sealContext(id, 'password'));
  return { config: { ...rest, host }, sealed };
}

/** Channels (SPEC §17) of the org, by name. Admins only. */
export async function listAlertChannels(db: Db, opts: ChannelScope): Promise<AlertChannel[]> {
  return inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, false);
    const rows = await tx.alertChannel.findMany({ where: { orgId: org.id }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    return rows.map(toAlertChannel);
  });
}

/** The channel `ref` (id or name) of org `orgId`, or `404 not_found`. */
async function requireChannel(tx: Tx, orgId: string, ref: string) {
  const key = ref.trim();
  const row = isIdShape(normalizeRef(key))
    ? await tx.alertChannel.findFirst({ where: { orgId, id: normalizeRef(key) } })
    : await tx.alertChannel.findFirst({ where: { orgId, name: key } });
  if (!row) throw new DomainError('not_found', 'alert channel not found');
  return row;
}

export async function getAlertChannel(db: Db, opts: ChannelScope & { channel: string }): Promise<AlertChannel> {
  return inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, false);
    return toAlertChannel(await requireChannel(tx, org.id, opts.channel));
  });
}

export interface ChannelSaveOptions extends ChannelScope {
  now: Date;
  /** SCHEDULER_HTTP_ALLOWED_HOSTS (SPEC §13.1). */
  allowList: HttpAllowList;
  resolve?: HostResolver;
}

/**
 * Create a channel (SPEC §17). A webhook channel gets its own signing secret (`whsec_…`), answered
 * here only. @throws `400 invalid_request_body` (with `path`), `409 alias_taken` for a name the org
 * already uses, `404`/`403` as `listAlertChannels`.
 */
export async function createAlertChannel(db: Db, opts: ChannelSaveOptions & { input: unknown }): Promise<{ channel: AlertChannel; signing_secret?: string }> {
  const input = parseOrRefuse(AlertChannelCreateInput, opts.input);
  const id = newId();
  const { config, sealed } = await storedConfig(id, input.type, input.config, null, opts.allowList, opts.resolve);
  const secret = input.type === 'webhook' ? generateSigningSecret() : undefined;
  if (secret) sealed.signing_secret = sealSecret(secret, sealContext(id, 'signing_secret'));
  return inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, true);
    await refuseTakenName(tx, org.id, input.name, null);
    const row = await tx.alertChannel.create({ data: { id, orgId: org.id, name: input.name, type: input.type, config: config as object, sealed: sealed as object, createdAt: opts.now, updatedAt: opts.now } });
    return { channel: toAlertChannel(row), ...(secret ? { signing_secret: secret } : {}) };
  });
}

async function refuseTakenName(tx: Tx, orgId: string, name: string, except: string | null) {
  const taken = await tx.alertChannel.findFirst({ where: { orgId, name, ...(except ? { id: { not: except } } : {}) }, select: { id: true } });
  if (taken) throw new DomainError('alias_taken', `the org already has an alert channel named "${name}"`, { path: 'name' });
}

/** Change a channel's name and/or config (the whole config of its type; masked secrets kept), or rotate a webhook's signing secret. */
export async function updateAlertChannel(db: Db, opts: ChannelSaveOptions & { channel: string; input: AlertChannelUpdateInput }): Promise<{ channel: AlertChannel; signing_secret?: string }> {
  // Parsed here too (the API and the web app parse it first): every caller gets the contract's checks.
  const input = parseOrRefuse(AlertChannelUpdateInput, opts.input);
  const before = await inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, true);
    return requireChannel(tx, org.id, opts.channel);
  });
  const type = before.type as AlertChannelType;
  const next = input.config !== undefined ? await storedConfig(before.id, type, input.config, before, opts.allowList, opts.resolve) : null;
  let secret: string | undefined;
  if (input.rotate_secret) {
    if (type !== 'webhook') throw new DomainError('invalid_request_body', 'rotate_secret: only a webhook channel has a signing secret', { path: 'rotate_secret' });
    secret = generateSigningSecret();
  }
  return inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, true);
    const row = await requireChannel(tx, org.id, before.id);
    if (input.name !== undefined) await refuseTakenName(tx, org.id, input.name, row.id);
    const sealed = { ...((row.sealed ?? {}) as Record<string, unknown>), ...(next?.sealed ?? {}) };
    if (type === 'email' && next && next.sealed.password === undefined) delete sealed.password;
    if (secret) sealed.signing_secret = sealSecret(secret, sealContext(row.id, 'signing_secret'));
    const updated = await tx.alertChannel.update({
      where: { id: row.id },
      data: { ...(input.name !== undefined ? { name: input.name } : {}), ...(next ? { config: next.config as object } : {}), sealed: sealed as object, updatedAt: opts.now },
    });
    return { channel: toAlertChannel(updated), ...(secret ? { signing_secret: secret } : {}) };
  });
}

/** A rule naming a channel, as a refusal or a confirmation names it. */
export interface ChannelRuleUse {
  rule_id: string;
  /** `scheduler "nightly": failure, recovered on schedule "export"` (or `on all schedules`). */
  description: string;
}

/** The rules naming each of `channelIds` (decision 340), oldest first, keyed by channel id. */
async function rulesUsingChannels(tx: Db | Tx, channelIds: string[]): Promise<Map<string, ChannelRuleUse[]>> {
  const links = await tx.alertRuleChannel.findMany({
    where: { channelId: { in: channelIds } },
    select: { channelId: true, rule: { select: { id: true, scheduleId: true, events: true, createdAt: true, revision: { select: { blob: { select: { name: true } } } } } } },
    orderBy: [{ rule: { createdAt: 'asc' } }, { ruleId: 'asc' }],
  });
  const scheduleIds = [...new Set(links.flatMap((l) => (l.rule.scheduleId ? [l.rule.scheduleId] : [])))];
  const schedules = new Map((await tx.schedule.findMany({ where: { id: { in: scheduleIds } }, select: { id: true, alias: true, name: true } })).map((s) => [s.id, s.alias ?? s.name]));
  const uses = new Map<string, ChannelRuleUse[]>();
  for (const { channelId, rule } of links) {
    const on = rule.scheduleId ? `on schedule "${schedules.get(rule.scheduleId) ?? rule.scheduleId}"` : 'on all schedules';
    const use = { rule_id: rule.id, description: `scheduler "${rule.revision.blob.name}": ${rule.events.split(',').join(', ')} ${on}` };
    uses.set(channelId, [...(uses.get(channelId) ?? []), use]);
  }
  return uses;
}

/** The rules naming each channel of the org (the admin page's delete confirmation names them). Admins only. */
export async function alertChannelUses(db: Db, opts: ChannelScope): Promise<Map<string, ChannelRuleUse[]>> {
  return inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, false);
    const ids = (await tx.alertChannel.findMany({ where: { orgId: org.id }, select: { id: true } })).map((c) => c.id);
    return rulesUsingChannels(tx, ids);
  });
}

/**
 * Delete a channel no rule names; its log entries stay (decision 287). A channel still named by rules
 * is refused (decision 340): deleting it would leave rules alerting no one, silently.
 * @throws `409 channel_in_use` naming the rules, `404`/`403` as `listAlertChannels`.
 */
export async function deleteAlertChannel(db: Db, opts: ChannelScope & { channel: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, true);
    const row = await requireChannel(tx, org.id, opts.channel);
    // Checked in the transaction of the delete, with the channel's row locked first (an UPDATE): a
    // rule naming it meanwhile either committed before (and is seen here) or waits for this delete
    // and then fails its foreign key. No rule is left naming no channel.
    await tx.alertChannel.update({ where: { id: row.id }, data: { updatedAt: row.updatedAt } });
    const uses = (await rulesUsingChannels(tx, [row.id])).get(row.id) ?? [];
    if (uses.length > 0) {
      const shown = uses.slice(0, 5).map((u) => `${u.description} (rule ${u.rule_id})`);
      const more = uses.length > 5 ? `, and ${uses.length - 5} more` : '';
      throw new DomainError('channel_in_use', `the alert channel "${row.name}" is named by ${uses.length} alert rule${uses.length === 1 ? '' : 's'}: ${shown.join('; ')}${more}. Remove it from ${uses.length === 1 ? 'that rule (or delete the rule)' : 'those rules (or delete them)'} first`);
    }
    await tx.alertChannel.delete({ where: { id: row.id } });
  });
}

/** The facts of Send test's sample message. */
function sampleFacts(now: Date): AlertFacts {
  return {
    schedule: { id: '00000000-0000-4000-8000-000000000000', name: 'example-schedule', description: 'a sample alert from Send test', timezone: 'UTC' },
    scheduler: { id: '00000000-0000-4000-8000-000000000000', name: 'example-scheduler', revision_id: '00000000-0000-4000-8000-000000000000' },
    scheduled_for: new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString(),
    error: 'http_error',
    message: 'HTTP 500 Internal Server Error: not a 2xx answer (sample)',
    attempts: 1,
    consecutive_failures: 3,
  };
}

/**
 * Send test (SPEC §17): a sample `failure` alert to the channel now; answers what the channel
 * answered. The answer is also the channel's last send (it clears or sets the failing flag).
 */
export async function testAlertChannel(db: Db, opts: ChannelScope & { channel: string; now: Date; delivery: AlertDeliveryDeps }): Promise<AlertTestAnswer> {
  const row = await inTransaction(db, async (tx) => {
    const org = await requireChannelAdmin(tx, opts.actor, opts.org, true);
    return requireChannel(tx, org.id, opts.channel);
  });
  const id = newId();
  const message = renderAlert({ id, event: 'failure', round: 0, facts: sampleFacts(opts.now), publicUrl: opts.delivery.publicUrl, at: opts.now, test: true });
  const answer = await deliverToChannel(row, id, message, opts.delivery, opts.now);
  await recordChannelAnswer(db, row.id, answer, opts.now);
  return { ok: answer.ok, ...(answer.status !== undefined ? { status: answer.status } : {}), message: answer.message };
}

/** The channel's last send (SPEC §17: a channel whose last send failed is flagged). */
export async function recordChannelAnswer(db: Db | Tx, channelId: string, answer: { ok: boolean; status?: number; message: string }, now: Date): Promise<void> {
  await db.alertChannel.updateMany({
    where: { id: channelId },
    data: { lastStatus: answer.ok ? 'ok' : 'failing', lastSentAt: now, lastAnswer: { ...(answer.status !== undefined ? { status: answer.status } : {}), message: answer.message } },
  });
}
