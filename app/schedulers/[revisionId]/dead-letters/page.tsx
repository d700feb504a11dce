import type { Metadata } from 'next';
import Link from 'next/link';
import { revisionOf, schedulerPage } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { backCursors, CursorPager, cursorQuery } from '@/components/cursor-pager';
import { DeadLetterList, type DeadLetterRow } from '@/components/dead-letter-list';
import { isDomainError } from '@/lib/errors';
import { DEAD_LETTERS_PAGE_SIZE, getSchedule, listDeadLetters, type DeadLetter } from '@/lib/schedules';
import { dismissDeadLetterAction, replayDeadLetterAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dead letters' };

interface Props {
  params: Promise<{ revisionId: string }>;
  searchParams: Promise<SearchParams>;
}

/**
 * A scheduler's dead-letter list (SPEC §12.3): its exhausted occurrences, newest first, 10 a page
 * (`?cursor=` the last id of the previous page, `?back=` the cursors of the newer pages), with Replay
 * and Dismiss.
 */
export default async function DeadLettersPage({ params, searchParams }: Props) {
  const [{ revisionId: rawId }, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler } = await schedulerPage(rawId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const base = `/schedulers/${revisionId}`;
  const selfHref = `${base}/dead-letters`;
  const cursor = param(sp, 'cursor') || null;
  const back = backCursors(param(sp, 'back'), cursor);
  let page: { dead_letters: DeadLetter[]; last_dead_letter_id: string | null } | null = null;
  try {
    page = await listDeadLetters({ db, actor, revision, startDeadLetterId: cursor });
  } catch (e) {
    // A cursor whose dead letter was dismissed meanwhile: say so and offer the first page.
    if (!(isDomainError(e) && e.code === 'invalid_request_body')) throw e;
  }
  // Each dead letter's schedule as it is now: linked while it exists (a schedule deleted after
  // completion, SPEC §12.5, leaves its dead letters behind).
  const scheduleIds = [...new Set(page?.dead_letters.map((l) => l.schedule_id) ?? [])];
  const schedules = new Map(
    await Promise.all(
      scheduleIds.map(async (id) => {
        try {
          const s = await getSchedule({ db, actor, revision, scheduleRef: id });
          return [id, { label: s.alias ?? s.id, href: `${base}/schedules/${s.id}` }] as const;
        } catch (e) {
          if (isDomainError(e) && e.code === 'schedule_not_found') return [id, null] as const;
          throw e;
        }
      }),
    ),
  );
  const rows: DeadLetterRow[] = (page?.dead_letters ?? []).map((letter) => ({ letter, schedule: schedules.get(letter.schedule_id) ?? null }));
  const pageHref = (c: string | null, backs: string[]) => {
    const q = cursorQuery(new URLSearchParams(), 'cursor', c, backs).toString();
    return q ? `${selfHref}?${q}` : selfHref;
  };

  return (
    <div className="page page-wide">
      <AutoRefresh intervalMs={10_000} />
      <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label: 'Dead letters' }]} />
      <div className="page-header">
        <div>
          <h1>Dead letters</h1>
          <p className="page-intro">
            Occurrences of {scheduler.name} whose attempts were exhausted (maximum retry attempts or maximum event age). Each stays here until dismissed. Replay fires
            it again now, as a manual run of its schedule linked to the dead letter.
          </p>
        </div>
      </div>

      <section className="container container-flush" aria-labelledby="dead-letters-title">
        <h2 id="dead-letters-title" className="container-title container-title-padded">
          Exhausted occurrences
        </h2>
        {!page ? (
          <div className="empty-inline">
            <p>That page of the dead letters no longer exists.</p>
            <Link href={selfHref} className="btn">
              First page
            </Link>
          </div>
        ) : (
          <DeadLetterList
            rows={rows}
            base={base}
            canWrite={scheduler.role !== 'read'}
            actions={{ replay: replayDeadLetterAction.bind(null, revisionId), dismiss: dismissDeadLetterAction.bind(null, revisionId) }}
            empty={
              <div className="empty-inline">
                <p>{cursor ? 'No more dead letters.' : 'No dead letters.'}</p>
                <p className="muted small">
                  An occurrence lands here when its last attempt fails and its schedule’s retries are exhausted; a schedule retries when it has a retry policy or a
                  dead-letter queue.
                </p>
              </div>
            }
          />
        )}
        {page ? <CursorPager label="Dead-letter pages" pageSize={DEAD_LETTERS_PAGE_SIZE} cursor={cursor} back={back} next={page.last_dead_letter_id} href={pageHref} /> : null}
      </section>
    </div>
  );
}
