/**
 * TEST-ONLY setup for e2e/access-matrix.spec.ts and e2e/login.spec.ts (run by e2e/global-setup.ts as
 * `node --import tsx e2e/setup/access-fixtures.ts <out.json>` with DATABASE_URL of the e2e server).
 * There is no public API to create an org, so this writes through the domain layer straight into the
 * e2e database: a second tenant `globex-corp` next to the seeded `acme-corp`, and in EACH org
 * - a scheduler `matrix-scheduler` holding schedule `matrix-schedule` (disabled: it never fires),
 * - a workflow blob `matrix-flows` (draft) with session `matrix-session` and definition `matrix-def`,
 * - users `matrix-{read,write,admin}@<org>.example` with those org roles and a password,
 * - org keys (read, write) and a personal key (read, write) of every user.
 * Idempotent: re-running reuses the objects, resets the passwords and makes new keys. Writes the
 * ids, passwords and keys as JSON to the path given (under data/, which is not committed).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApiKey, hashPassword, ROLES, type Actor, type Role } from '../../lib/auth';
import { loadConfig } from '../../lib/config';
import { closeDb, getDb, type Db } from '../../lib/db';
import { createSchedule } from '../../lib/schedules';
import { createDefinition, createSchedulerBlob, createSession, createWorkflowBlob } from '../../lib/workflows';

export const ORGS = { acme: { alias: 'acme-corp', name: 'Acme Corp' }, globex: { alias: 'globex-corp', name: 'Globex Corporation' } } as const;
export type OrgKey = keyof typeof ORGS;

export interface OrgObjects {
  id: string;
  alias: string;
  scheduler: { blobId: string; alias: string; name: string; revisionId: string };
  workflow: { blobId: string; alias: string; revisionId: string };
  schedule: { id: string; alias: string };
  session: { id: string; alias: string };
  definition: { id: string; alias: string };
}

export interface AccessFixtures {
  orgs: Record<OrgKey, OrgObjects>;
  users: { org: OrgKey; role: Role; email: string; password: string }[];
  keys: { org: OrgKey; owner: 'org' | 'user'; userRole?: Role; role: 'read' | 'write'; key: string }[];
}

async function tx<T>(db: Db, fn: (t: Parameters<Parameters<Db['$transaction']>[0]>[0]) => Promise<T>): Promise<T> {
  return db.$transaction((t) => fn(t));
}

async function setUpOrg(db: Db, org: OrgKey, now: Date, out: AccessFixtures): Promise<OrgObjects> {
  const { alias, name } = ORGS[org];
  const row = await tx(db, (t) => t.org.upsert({ where: { alias }, create: { alias, name }, update: {} }));
  const actors: Partial<Record<Role, Actor>> = {};
  for (const role of ROLES) {
    const email = `matrix-${role}@${alias}.example`;
    const password = randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    const user = await tx(db, async (t) => {
      const found = await t.user.findFirst({ where: { email }, orderBy: { createdAt: 'asc' }, select: { id: true } });
      const u = found
        ? await t.user.update({ where: { id: found.id }, data: { passwordHash } })
        : await t.user.create({ data: { email, name: `Matrix ${role} (${alias})`, passwordHash } });
      await t.membership.upsert({ where: { userId_orgId: { userId: u.id, orgId: row.id } }, create: { userId: u.id, orgId: row.id, role }, update: { role } });
      return u;
    });
    actors[role] = { type: 'user', id: user.id, roleCap: null };
    out.users.push({ org, role, email, password });
  }
  const admin = actors.admin!;

  const blob = async (type: 'scheduler' | 'workflow', blobAlias: string, blobName: string) => {
    const found = await db.blob.findUnique({ where: { orgId_alias: { orgId: row.id, alias: blobAlias } } });
    if (found) return { blobId: found.id, revisionId: found.defaultRevisionId! };
    const create = type === 'scheduler' ? createSchedulerBlob : createWorkflowBlob;
    const d = await create(db, { actor: admin, org: row.id, alias: blobAlias, name: blobName, now });
    return { blobId: d.id, revisionId: d.default_revision_id! };
  };
  const schedulerName = `Matrix scheduler (${alias})`;
  const scheduler = { ...(await blob('scheduler', 'matrix-scheduler', schedulerName)), alias: 'matrix-scheduler', name: schedulerName };
  const workflow = { ...(await blob('workflow', 'matrix-flows', `Matrix flows (${alias})`)), alias: 'matrix-flows' };

  const session =
    (await db.workflowSession.findFirst({ where: { revisionId: workflow.revisionId, alias: 'matrix-session' } })) ??
    (await createSession(db, { actor: admin, revisionId: workflow.revisionId, alias: 'matrix-session', now }));
  const definition =
    (await db.definition.findFirst({ where: { revisionId: workflow.revisionId, alias: 'matrix-def' } })) ??
    (await createDefinition(db, { actor: admin, revisionId: workflow.revisionId, alias: 'matrix-def', name: 'Matrix definition', now }));
  const schedule =
    (await db.schedule.findFirst({ where: { revisionId: scheduler.revisionId, alias: 'matrix-schedule' } })) ??
    (await createSchedule({
      db,
      actor: admin,
      revision: { id: scheduler.revisionId, blobId: scheduler.blobId },
      limits: loadConfig().limits,
      now,
      input: {
        alias: 'matrix-schedule',
        description: `Matrix schedule of ${alias}`,
        repeat: 'recurring_cron',
        cron_expression: '0 3 * * ? *',
        timezone: 'UTC',
        enabled: false,
        invocation_target: {
          target: { org: alias, blob: 'matrix-flows', revision: 'default', session: 'matrix-session' },
          workflow: { definition: 'matrix-def' },
          input_data: [],
        },
      },
    }));

  for (const role of ['read', 'write'] as const) {
    const k = await createApiKey(db, { actor: admin, owner: { type: 'org', org: row.id }, input: { name: `matrix-org-${role}`, role }, now });
    out.keys.push({ org, owner: 'org', role, key: k.key });
    for (const userRole of ROLES) {
      const u = await createApiKey(db, { actor: actors[userRole]!, owner: { type: 'user' }, input: { name: `matrix-user-${role}`, role }, now });
      out.keys.push({ org, owner: 'user', userRole, role, key: u.key });
    }
  }
  return {
    id: row.id,
    alias,
    scheduler,
    workflow,
    schedule: { id: schedule.id, alias: 'matrix-schedule' },
    session: { id: session.id, alias: 'matrix-session' },
    definition: { id: definition.id, alias: 'matrix-def' },
  };
}

async function main(outPath: string) {
  const db = getDb(loadConfig());
  const now = new Date();
  const out: AccessFixtures = { orgs: {} as AccessFixtures['orgs'], users: [], keys: [] };
  for (const org of Object.keys(ORGS) as OrgKey[]) out.orgs[org] = await setUpOrg(db, org, now, out);
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, JSON.stringify(out, null, 2), { mode: 0o600 });
}

if (process.argv[1]?.endsWith('access-fixtures.ts')) {
  const outPath = process.argv[2];
  if (!outPath) {
    console.error('usage: node --import tsx e2e/setup/access-fixtures.ts <out.json>');
    process.exit(2);
  }
  main(path.resolve(outPath))
    .catch((e) => {
      console.error('access fixtures failed:', e);
      process.exitCode = 1;
    })
    .finally(() => closeDb());
}
