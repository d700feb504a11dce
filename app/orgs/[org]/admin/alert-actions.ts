'use server';
/**
 * Server actions of the org admin page's alert channels (SPEC §17): add one of each type, edit one,
 * Send test, delete. Each calls one lib/schedules function (which checks `admin` on the org).
 */
import { revalidatePath } from 'next/cache';
import type { FormAnswer } from '@/app/_components/action-form';
import { webAction } from '@/app/lib/server';
import { parseOrRefuse } from '@/lib/errors';
import { AlertChannelUpdateInput, createAlertChannel, deleteAlertChannel, SECRET_MASK, testAlertChannel, updateAlertChannel } from '@/lib/schedules';

const adminPath = (org: string) => `/orgs/${org}/admin`;
const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/**
 * The channel's `config` from the form of its type (add and edit share it). On an edit, a secret field
 * left empty keeps the stored secret: a Slack URL sends back its masked form (`origin/••••`, a hidden
 * field), an SMTP password the mask (decision 277).
 */
function configOf(type: string, form: FormData, editing = false): Record<string, unknown> {
  if (type === 'slack') return { url: text(form, 'url') || (editing ? text(form, 'masked_url') : '') };
  if (type !== 'email') return { url: text(form, 'url') };
  const port = Number(text(form, 'port'));
  const password = String(form.get('password') ?? '');
  return {
    host: text(form, 'host'),
    port: Number.isInteger(port) && text(form, 'port') !== '' ? port : text(form, 'port'),
    tls: text(form, 'tls'),
    ...(text(form, 'user') ? { user: text(form, 'user') } : {}),
    ...(password ? { password } : editing ? { password: SECRET_MASK } : {}),
    from: text(form, 'from'),
    to: text(form, 'to').split(/[\s,;]+/).filter(Boolean),
  };
}

export async function addAlertChannelAction(org: string, type: 'webhook' | 'slack' | 'email', _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now, httpAllowList }) => {
    const made = await createAlertChannel(db, { actor, org, now, allowList: httpAllowList, input: { type, name: text(form, 'name'), config: configOf(type, form) } });
    revalidatePath(adminPath(org));
    if (made.signing_secret) return { shownOnce: { label: `Channel ${made.channel.name} added. Its signing secret verifies each alert's webhook-signature (Standard Webhooks):`, value: made.signing_secret } };
    return { message: `Channel ${made.channel.name} added. Send a test to check it.` };
  });
}

export async function testAlertChannelAction(org: string, channelId: string, _prev: FormAnswer | null): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now, delivery, http }) => {
    const answer = await testAlertChannel(db, { actor, org, channel: channelId, now, delivery: { pool: delivery.pool, allowList: delivery.allowList, resolve: delivery.resolve, publicUrl: http.publicUrl } });
    revalidatePath(adminPath(org));
    return { message: `${answer.ok ? 'Delivered' : 'Failed'}: the channel answered ${answer.message}` };
  });
}

export async function deleteAlertChannelAction(org: string, channelId: string, _prev: FormAnswer | null): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    await deleteAlertChannel(db, { actor, org, channel: channelId });
    revalidatePath(adminPath(org));
    return { message: 'Channel deleted.' };
  });
}

/** Edit a channel from the form its type adds with (the API's PATCH: the same schema, the same checks); a checked `rotate` makes a new webhook signing secret, shown once. */
export async function editAlertChannelAction(org: string, channelId: string, type: 'webhook' | 'slack' | 'email', _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now, httpAllowList }) => {
    const input = parseOrRefuse(AlertChannelUpdateInput, { name: text(form, 'name'), config: configOf(type, form, true), ...(form.get('rotate') === 'on' ? { rotate_secret: true } : {}) });
    const saved = await updateAlertChannel(db, { actor, org, channel: channelId, now, allowList: httpAllowList, input });
    revalidatePath(adminPath(org));
    if (saved.signing_secret) return { shownOnce: { label: `Channel ${saved.channel.name} saved with a new signing secret; the old one no longer verifies:`, value: saved.signing_secret } };
    return { message: `Channel ${saved.channel.name} saved. Send a test to check it.` };
  });
}
