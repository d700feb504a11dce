'use server';
/**
 * Server actions of a scheduler's settings page: the webhook signing secret (SPEC §13.1) and the
 * per-schedule series of /metrics (SPEC §16.3). Each calls
 * one domain function (which checks `admin` on the scheduler) and answers the secret once.
 */
import { revalidatePath } from 'next/cache';
import type { FormAnswer } from '@/app/_components/action-form';
import { schedulerAction } from '@/app/lib/server';
import { getSigningSecret, rotateSigningSecret, setMetricsPerSchedule } from '@/lib/schedules';

const settingsPath = (revisionId: string) => `/schedulers/${revisionId}/settings`;

/**
 * Show the current secret, once (creating it when the scheduler has none yet). The page is NOT
 * revalidated: it would re-render without this form (the secret is shown now), and the form's
 * answer, the only place the secret appears, would vanish with it. A reload shows the new state.
 */
export async function showSigningSecretAction(revisionId: string, _prev: FormAnswer | null, _form: FormData): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    const info = await getSigningSecret({ ...ctx });
    return info.secret
      ? { shownOnce: { label: 'Signing secret of this scheduler:', value: info.secret } }
      : { message: `This secret (${info.hint}) was already shown. Rotate it to get a new one.` };
  });
}

/** Rotate: a new secret, shown once; the previous one keeps signing for 24 hours. The rotate form
 * stays on the re-rendered page, so its answer survives the revalidation. */
export async function rotateSigningSecretAction(revisionId: string, _prev: FormAnswer | null, _form: FormData): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    const info = await rotateSigningSecret({ ...ctx });
    revalidatePath(settingsPath(revisionId));
    return { shownOnce: { label: 'New signing secret (the previous one keeps signing for 24 hours):', value: info.secret! } };
  });
}

/**
 * Turn the scheduler's per-schedule series of /metrics on (`enabled`) or off (SPEC §16.3
 * `set_metrics_per_schedule`; admins only, recorded in the activity log). The page re-renders with
 * the setting as now held.
 */
export async function setMetricsPerScheduleAction(revisionId: string, enabled: boolean, _prev: FormAnswer | null, _form: FormData): Promise<FormAnswer> {
  return schedulerAction(revisionId, async (ctx) => {
    const held = await setMetricsPerSchedule({ ...ctx, enabled });
    revalidatePath(settingsPath(revisionId));
    return { message: held.metrics_per_schedule ? 'Per-schedule metrics are on: /metrics names each schedule of this scheduler.' : 'Per-schedule metrics are off.' };
  });
}
