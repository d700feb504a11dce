'use server';
/**
 * Server actions of a scheduler's Alerts page (SPEC §17): add a rule, enable or disable one, delete
 * one. Each calls one lib/schedules function (which checks `write` on the scheduler).
 */
import { revalidatePath } from 'next/cache';
import type { FormAnswer } from '@/app/_components/action-form';
import { schedulerAction } from '@/app/lib/server';
import { parseOrRefuse } from '@/lib/errors';
import { createAlertRule, CreateAlertRuleParams, deleteAlertRule, updateAlertRule } from '@/lib/schedules';

const alertsPath = (revisionId: string) => `/schedulers/${revisionId}/alerts`;
const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
/** A number field: its number, or the text as typed (the contract then refuses it, naming the field). */
const num = (form: FormData, name: string) => (text(form, name) === '' ? undefined : Number.isFinite(Number(text(form, name))) ? Number(text(form, name)) : text(form, name));

export async function addAlertRuleAction(revisionId: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    const input = {
      ...(text(form, 'schedule_id') ? { schedule_id: text(form, 'schedule_id') } : {}),
      events: form.getAll('events').map(String),
      channels: form.getAll('channels').map(String),
      ...(num(form, 'failure_tolerance') !== undefined ? { failure_tolerance: num(form, 'failure_tolerance') } : {}),
      ...(num(form, 'silence_seconds') !== undefined ? { silence_seconds: num(form, 'silence_seconds') } : {}),
      ...(num(form, 'realert_interval_seconds') !== undefined ? { realert_interval_seconds: num(form, 'realert_interval_seconds') } : {}),
    };
    const rule = await createAlertRule({ ...ctx, input: parseOrRefuse(CreateAlertRuleParams, input), now: ctx.now });
    revalidatePath(alertsPath(revisionId));
    return { message: `Rule added: ${rule.events.join(', ')} to ${rule.channels.map((c) => c.name).join(', ')}.` };
  });
}

export async function setAlertRuleEnabledAction(revisionId: string, ruleId: string, enabled: boolean, _prev: FormAnswer | null): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    await updateAlertRule({ ...ctx, input: { rule_id: ruleId, enabled }, now: ctx.now });
    revalidatePath(alertsPath(revisionId));
    return { message: enabled ? 'Rule enabled.' : 'Rule disabled.' };
  });
}

export async function deleteAlertRuleAction(revisionId: string, ruleId: string, _prev: FormAnswer | null): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    await deleteAlertRule({ ...ctx, ruleRef: ruleId });
    revalidatePath(alertsPath(revisionId));
    return { message: 'Rule deleted.' };
  });
}
