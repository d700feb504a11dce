/**
 * The alerts contract (SPEC §17): channels, rules and the alert log, one zod schema per shape, shared
 * by the product API, the web app and the CLI manifest. Universal: no I/O, no clock.
 */
import { z } from 'zod';
import { isIdShape } from '../../ids';
import { IdSchema, InstantSchema } from '../../workflows/contract';

/** Channel types (SPEC §17). */
export const ALERT_CHANNEL_TYPES = ['webhook', 'slack', 'email'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

/** Events a rule alerts on (SPEC §17). */
export const ALERT_EVENTS = ['failure', 'dead_letter', 'missed', 'silence', 'paused', 'recovered'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** SMTP transport security: `none` (plain), `starttls` (upgrade required), `tls` (implicit TLS, port 465). */
export const SMTP_TLS_MODES = ['none', 'starttls', 'tls'] as const;

/** A write-only value as every answer shows it (as webhook header values, SPEC §13.5); sent back, it keeps the stored value. */
export const SECRET_MASK = '••••';

/** A channel's name: a rule names a channel by id or by name, so a name never has an id's shape (decision 342). */
const Name = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(64)
  .refine((v) => !isIdShape(v), 'must not have the shape of an id (a rule names channels by id or by name)');
const HttpUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), 'must be an http or https URL');
const Email = z.string().max(254).regex(/^[^\s@<>,;]+@[^\s@<>,;]+$/, 'must be an email address');

export const WebhookChannelConfig = z.strictObject({ url: HttpUrl });
/** `url` is write-only (an incoming-webhook URL is its own credential): answered as its origin + `/••••`. */
export const SlackChannelConfig = z.strictObject({ url: z.union([HttpUrl, z.string().endsWith(`/${SECRET_MASK}`)]) });
export const EmailChannelConfig = z.strictObject({
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  tls: z.enum(SMTP_TLS_MODES),
  user: z.string().max(256).optional(),
  /** Write-only: sealed with the server key; answered `••••`. */
  password: z.string().max(1024).optional(),
  from: Email,
  to: z.array(Email).min(1).max(50),
});

/** `POST /api/v1/orgs/{org}/alert-channels`. */
export const AlertChannelCreateInput = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('webhook'), name: Name, config: WebhookChannelConfig }),
  z.strictObject({ type: z.literal('slack'), name: Name, config: SlackChannelConfig }),
  z.strictObject({ type: z.literal('email'), name: Name, config: EmailChannelConfig }),
]);
export type AlertChannelCreateInput = z.infer<typeof AlertChannelCreateInput>;

/** `PATCH /api/v1/orgs/{org}/alert-channels/{channel}`: a new name and/or the whole config of its type; `rotate_secret` (webhook) makes a new signing secret, shown in the answer. */
export const AlertChannelUpdateInput = z.strictObject({
  name: Name.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  rotate_secret: z.boolean().optional(),
});
export type AlertChannelUpdateInput = z.infer<typeof AlertChannelUpdateInput>;

/** A channel as answers show it: secrets never (a webhook's signing secret only in the answer that made it). */
export const AlertChannelSchema = z.strictObject({
  id: IdSchema,
  name: z.string(),
  type: z.enum(ALERT_CHANNEL_TYPES),
  config: z.record(z.string(), z.unknown()),
  /** `ok` | `failing` after the last send (an alert or a Send test); absent before the first. */
  last_status: z.enum(['ok', 'failing']).optional(),
  last_sent_at: InstantSchema.optional(),
  last_answer: z.strictObject({ status: z.number().int().optional(), message: z.string() }).optional(),
  created_at: InstantSchema,
  updated_at: InstantSchema,
});
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

export const AlertChannelAnswer = z.strictObject({ channel: AlertChannelSchema, signing_secret: z.string().optional() });
export const AlertChannelListAnswer = z.strictObject({ channels: z.array(AlertChannelSchema) });
/** Send test: what the channel answered. */
export const AlertTestAnswer = z.strictObject({ ok: z.boolean(), status: z.number().int().optional(), message: z.string() });
export type AlertTestAnswer = z.infer<typeof AlertTestAnswer>;

const Events = z.array(z.enum(ALERT_EVENTS)).min(1, 'choose at least one event').refine((e) => new Set(e).size === e.length, 'lists an event twice');

/** A whole number in [min, max], its refusals said as the rule form's words (not zod's). */
function wholeNumber(min: number, max: number, unit: string) {
  return z
    .number({ error: `must be a whole number from ${min} to ${max}${unit}` })
    .int(`must be a whole number from ${min} to ${max}${unit}`)
    .min(min, `must be at least ${min}${unit}`)
    .max(max, `must be at most ${max}${unit}`);
}

/** The writable fields of a rule (SPEC §17). */
const RuleFields = {
  /** A schedule (id or alias) of this scheduler; absent or null: every schedule of the scheduler. */
  schedule_id: z.string().trim().min(1).max(200).nullable().optional(),
  events: Events,
  /** Channels of the scheduler's org, each by id or name. */
  channels: z.array(z.string().trim().min(1).max(64)).min(1, 'choose at least one channel').max(20, 'at most 20 channels'),
  failure_tolerance: wholeNumber(1, 1000, '').optional(),
  silence_seconds: wholeNumber(60, 31_536_000, ' seconds').optional(),
  realert_interval_seconds: wholeNumber(60, 604_800, ' seconds').nullable().optional(),
  enabled: z.boolean().optional(),
};

function silenceNeedsSeconds(r: { events?: string[]; silence_seconds?: number | null }, ctx: z.RefinementCtx) {
  if (r.events?.includes('silence') && (r.silence_seconds === undefined || r.silence_seconds === null)) {
    ctx.addIssue({ code: 'custom', message: 'the silence event needs silence_seconds', path: ['silence_seconds'] });
  }
}

/** `create_alert_rule`; `dry_run: true` checks it (schedule, channels, access) and writes nothing. */
export const CreateAlertRuleParams = z.strictObject({ ...RuleFields, dry_run: z.boolean().optional() }).superRefine(silenceNeedsSeconds);
export type CreateAlertRuleParams = z.infer<typeof CreateAlertRuleParams>;
/** `update_alert_rule`: only the fields sent change; `null` clears `silence_seconds` / `realert_interval_seconds` / `schedule_id`. */
export const UpdateAlertRuleParams = z.strictObject({
  rule_id: IdSchema,
  schedule_id: RuleFields.schedule_id,
  events: Events.optional(),
  channels: RuleFields.channels.optional(),
  failure_tolerance: RuleFields.failure_tolerance,
  silence_seconds: z.number().int().min(60).max(31_536_000).nullable().optional(),
  realert_interval_seconds: RuleFields.realert_interval_seconds,
  enabled: RuleFields.enabled,
});
export type UpdateAlertRuleParams = z.infer<typeof UpdateAlertRuleParams>;
export const AlertRuleIdParams = z.strictObject({ rule_id: IdSchema });
export const ListAlertRulesParams = z.strictObject({ schedule_id: z.string().trim().min(1).max(200).optional() });

export const AlertRuleSchema = z.strictObject({
  id: IdSchema,
  /** Absent: every schedule of the scheduler. */
  schedule_id: IdSchema.optional(),
  events: z.array(z.enum(ALERT_EVENTS)),
  channels: z.array(z.strictObject({ id: IdSchema, name: z.string(), type: z.enum(ALERT_CHANNEL_TYPES) })),
  failure_tolerance: z.number().int(),
  silence_seconds: z.number().int().optional(),
  realert_interval_seconds: z.number().int().optional(),
  enabled: z.boolean(),
  created_at: InstantSchema,
  updated_at: InstantSchema,
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;
export const AlertRuleAnswer = z.strictObject({ rule: AlertRuleSchema });
export const AlertRuleListAnswer = z.strictObject({ rules: z.array(AlertRuleSchema) });

/** One notification of the alert log (SPEC §17). */
export const AlertSchema = z.strictObject({
  id: IdSchema,
  schedule_id: IdSchema,
  schedule_name: z.string(),
  incident_id: IdSchema,
  rule_id: IdSchema,
  channel: z.strictObject({ id: IdSchema, name: z.string(), type: z.enum(ALERT_CHANNEL_TYPES) }).nullable(),
  event: z.enum(ALERT_EVENTS),
  round: z.number().int(),
  /** When the occurrence it reports was due (ISO UTC), when it reports one. */
  scheduled_for: InstantSchema.optional(),
  summary: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  sends: z.number().int(),
  next_send_at: InstantSchema.optional(),
  answer: z.strictObject({ status: z.number().int().optional(), message: z.string() }).optional(),
  created_at: InstantSchema,
  sent_at: InstantSchema.optional(),
});
export type AlertEntry = z.infer<typeof AlertSchema>;
export const ListAlertsParams = z.strictObject({ start_alert_id: z.string().max(200).nullable().optional() });
export const AlertListPage = z.strictObject({ alerts: z.array(AlertSchema), last_alert_id: IdSchema.nullable() });

/**
 * A rule in the CLI manifest's `alerts:` list (docs/cli.md): the API's fields, the schedule named by
 * its alias (`schedule`, absent: every schedule) and channels by name.
 */
export const ManifestAlertRule = z
  .strictObject({
    schedule: z.string().trim().min(1).max(200).optional(),
    events: Events,
    channels: RuleFields.channels,
    failure_tolerance: RuleFields.failure_tolerance,
    silence_seconds: RuleFields.silence_seconds,
    realert_interval_seconds: wholeNumber(60, 604_800, ' seconds').optional(),
    enabled: RuleFields.enabled,
  })
  .superRefine(silenceNeedsSeconds);
export type ManifestAlertRule = z.infer<typeof ManifestAlertRule>;

/**
 * A rule's identity for the CLI's comparison: what it applies to and does, order-free (events and
 * channel names sorted), defaults filled in. Two rules with the same key are the same rule. Pure.
 */
export function alertRuleKey(r: { schedule?: string | null; events: readonly string[]; channels: readonly string[]; failure_tolerance?: number; silence_seconds?: number | null; realert_interval_seconds?: number | null; enabled?: boolean }): string {
  return JSON.stringify([r.schedule ?? null, [...r.events].sort(), [...r.channels].sort(), r.failure_tolerance ?? 1, r.silence_seconds ?? null, r.realert_interval_seconds ?? null, r.enabled ?? true]);
}
