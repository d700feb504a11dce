/**
 * Test fixtures for the catalog's integration tests: orgs, users with memberships, and a workflow blob
 * with one draft revision holding a session and a definition. Everything goes through the real verbs.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../db';
import type { Actor } from '../auth';
import { newId } from '../ids';
import { createDefinition, createSchedulerBlob, createSession, createWorkflowBlob } from '../workflows';
import { createTestDb } from './test-db';

/** 2026-03-08T12:00:00Z, the reference instant of these tests. */
export const T0 = new Date('2026-03-08T12:00:00.000Z');

/**
 * An org named `alias`. Its AWS credentials (SPEC §13.5) are `worker` unless `awsCredentials` says
 * otherwise: the fixtures' orgs deliver to moto with the test environment's keys, as the demo org
 * does (they are in `TEST_WORKER_CREDENTIALS_ORGS`, lib/testing/fire-and-deliver.ts; docs/decisions.md 216).
 */
export async function makeOrg(db: Db, alias: string, opts: { awsCredentials?: 'role' | 'worker' } = {}): Promise<{ id: string; alias: string }> {
  const org = await db.org.create({ data: { id: newId(), alias, name: alias, awsCredentials: opts.awsCredentials ?? 'worker' } });
  return { id: org.id, alias };
}

/** A user acting through a browser login (no key cap), member of `orgId` with `role` when given. */
export async function makeUser(db: Db, email: string, orgId?: string, role?: 'read' | 'write' | 'admin'): Promise<Actor> {
  const user = await db.user.create({ data: { id: newId(), email, name: email } });
  if (orgId && role) await db.membership.create({ data: { id: newId(), userId: user.id, orgId, role } });
  return { type: 'user', id: user.id, roleCap: null };
}

export interface World {
  org: { id: string; alias: string };
  writer: Actor;
  reader: Actor;
  stranger: Actor;
  blobId: string;
  revisionId: string;
  sessionId: string;
  definitionId: string;
}

/**
 * `acme-corp` with a writer, a reader and a stranger; workflow blob `support-bot` whose draft default
 * revision holds session `nightly-batch` and definition `triage`.
 */
export async function makeWorld(db: Db): Promise<World> {
  const org = await makeOrg(db, 'acme-corp');
  const writer = await makeUser(db, 'writer@example.test', org.id, 'write');
  const reader = await makeUser(db, 'reader@example.test', org.id, 'read');
  const stranger = await makeUser(db, 'stranger@example.test');
  const blob = await createWorkflowBlob(db, { actor: writer, org: 'acme-corp', alias: 'support-bot', now: T0 });
  const revisionId = blob.default_revision_id!;
  const session = await createSession(db, { actor: writer, revisionId, alias: 'nightly-batch', now: T0 });
  const definition = await createDefinition(db, { actor: writer, revisionId, alias: 'triage', name: 'Triage', spec: { steps: 1 }, now: T0 });
  return { org, writer, reader, stranger, blobId: blob.id, revisionId, sessionId: session.id, definitionId: definition.id };
}

export interface SchedulerWorld {
  db: Db;
  /** `makeWorld`'s orgs, users and workflow blob. */
  w: World;
  /** Scheduler blob `ops-sched` (made by the writer): its managed revision `{id, blobId}`. */
  ops: { id: string; blobId: string };
}

/**
 * Register, for the calling test file, a fresh database holding `makeWorld` and a scheduler blob
 * `ops-sched`: created before all its tests, dropped after. The fields are set once `beforeAll` ran.
 */
export function useSchedulerWorld(): SchedulerWorld {
  const t = {} as SchedulerWorld;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await createTestDb();
    cleanup = created.cleanup;
    const w = await makeWorld(created.db);
    const s = await createSchedulerBlob(created.db, { actor: w.writer, org: 'acme-corp', alias: 'ops-sched' });
    Object.assign(t, { db: created.db, w, ops: { id: s.default_revision_id!, blobId: s.id } });
  });
  afterAll(async () => cleanup?.());
  return t;
}
