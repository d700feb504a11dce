'use server';
/**
 * Server actions of the Schedulers page (STYLE §2.4): parse with the command's one schema, resolve the
 * signed-in actor, call one domain verb (which opens its own transaction), answer with the server-action contract.
 */
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { webAction } from '@/app/lib/server';
import type { CatalogAnswer } from '@/components/catalog/catalog-answer';
import { CreateBlobParams, createSchedulerBlob, parseParams } from '@/lib/workflows';

/** A text field as sent; blank → undefined. */
function text(form: FormData, key: string): string | undefined {
  const v = form.get(key);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * "New scheduler": a scheduler blob (alias, optional name) in the chosen org, which needs `write` on
 * it (SPEC §1, §2); then its (empty) grid.
 */
export async function createSchedulerAction(_prev: CatalogAnswer | null, form: FormData): Promise<CatalogAnswer> {
  let revisionId: string | null = null;
  const answer = await webAction(async ({ db, actor, now }) => {
    const p = parseParams(CreateBlobParams, { type: 'scheduler', alias: text(form, 'alias'), name: text(form, 'name') });
    const blob = await createSchedulerBlob(db, { actor, org: text(form, 'org') ?? '', alias: p.alias, name: p.name, now });
    revisionId = blob.default_revision_id;
    revalidatePath('/schedulers');
    return { message: `Scheduler ${blob.alias ?? blob.id} created.` };
  });
  if (answer.ok && revisionId) redirect(`/schedulers/${revisionId}`);
  return answer;
}
