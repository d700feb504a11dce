/**
 * Tests only: a fresh real database with the demo seed (prisma/seed.ts), and what the fire-path tests
 * reach for in it: the seeded operator as an actor, the scheduler's managed revision, and the
 * following target `acme-corp / procedures @ default / nightly-batch` running `triage`.
 *
 * ```ts
 * const w = useSeededScheduler(); // registers beforeAll / afterAll
 * await createSchedule({ db: w.db, actor: w.actor(), revision: await w.scheduler(), … });
 * ```
 */
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../db';
import { seed } from '../../prisma/seed';
import { createTestDb } from './test-db';

/** The seeded following target (SPEC §6.1), with one input. */
export const SEEDED_TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

export interface SeededScheduler {
  /** The database (set once `beforeAll` ran). */
  readonly db: Db;
  /** The seed's ids (org, operator user, scheduler and procedures revisions). */
  readonly ctx: Awaited<ReturnType<typeof seed>>;
  /** The seeded operator, acting as a user. */
  actor(): { type: 'user'; id: string; roleCap: null };
  /** The scheduler's managed revision `{id, blobId}`. */
  scheduler(): Promise<{ id: string; blobId: string }>;
}

/** Register a seeded database for the calling test file: created before all its tests, dropped after. */
export function useSeededScheduler(): SeededScheduler {
  let db: Db | undefined;
  let ctx: Awaited<ReturnType<typeof seed>> | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, cleanup } = t);
    ctx = await seed(t.db, undefined);
  });
  afterAll(async () => cleanup?.());
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useSeededScheduler: used before beforeAll ran');
    return v;
  };
  return {
    get db() {
      return ready(db);
    },
    get ctx() {
      return ready(ctx);
    },
    actor: () => ({ type: 'user' as const, id: ready(ctx).userId, roleCap: null }),
    async scheduler() {
      const rev = await ready(db).revision.findUniqueOrThrow({ where: { id: ready(ctx).schedulerRevisionId } });
      return { id: rev.id, blobId: rev.blobId };
    },
  };
}
