/**
 * Idempotent seed for the embedded default (runs on every `npm start`): org `acme-corp`, its operator,
 * scheduler `ops-scheduler`, workflow blob `procedures` (draft default revision, open session
 * `nightly-batch`, definitions `triage` and `daily-report`), two demo schedules, and an org API key:
 * SCHEDULER_BOOTSTRAP_API_KEY when set, otherwise one generated on the first seed and printed once.
 * SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID + SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY, when set, create or update an
 * access key pair of `acme-corp` (acting as the org, `write`) for the EventBridge-compatible API (SPEC §14).
 * The operator's login password: SCHEDULER_DEMO_PASSWORD when set (applied at every seed), otherwise
 * one generated for an operator without a password and printed once (only its scrypt hash is stored).
 */
import { generateApiKey, upsertKnownApiKey, upsertKnownAccessKey, DEMO_USER_EMAIL, generatePassword, passwordHashForEmail, verifyPassword } from '../lib/auth';
import { loadConfig } from '../lib/config';
import { closeDb, getDb, inTransaction, withMigrationLock, type Db, type Tx } from '../lib/db';
import { writeCredentialsFile } from '../scripts/credentials-file';

const BOOTSTRAP_KEY_NAME = 'bootstrap';

async function findOrCreateBlob(db: Tx, orgId: string, alias: string, type: 'workflow' | 'scheduler', name: string) {
  const existing = await db.blob.findFirst({ where: { orgId, alias } });
  if (existing) return existing;
  const blob = await db.blob.create({ data: { orgId, alias, type, name } });
  const revision = await db.revision.create({ data: { blobId: blob.id, state: type === 'scheduler' ? 'managed' : 'draft' } });
  return db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: revision.id } });
}

/** Seed `db` (default: the configured database). Returns the generated key when one was made. */
export async function seed(
  db: Db = getDb(loadConfig()),
  bootstrapApiKey = loadConfig().bootstrapApiKey,
  demoPassword = loadConfig().demoPassword,
  bootstrapAccessKey = loadConfig().bootstrapAccessKey,
  /**
   * SPEC §13.5: the AWS credentials the demo org chooses when it is created: `worker` (`npm start`
   * lists it in SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS). Null leaves the database's default (tests
   * that seed a database older than migration 0021, which has no such column).
   */
  demoOrgAwsCredentials: 'worker' | null = 'worker',
): Promise<{ printedKey: string | null; printedPassword: string | null; orgId: string; userId: string; schedulerRevisionId: string; proceduresRevisionId: string }> {
  // The operator is the seeded org's member with the demo email (an email may have other accounts,
  // made through other orgs' links: docs/decisions.md 160); the oldest when several.
  const findOperator = (t: Tx) =>
    t.user.findFirst({
      where: { email: DEMO_USER_EMAIL, memberships: { some: { org: { alias: 'acme-corp' } } } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, passwordHash: true },
    });
  // The operator's password hash is computed before the transaction (scrypt takes ~100 ms).
  const existing = await findOperator(db);
  let printedPassword: string | null = null;
  let passwordHash: string | null = null;
  if (demoPassword) {
    if (!existing?.passwordHash || !(await verifyPassword(demoPassword, existing.passwordHash))) passwordHash = await passwordHashForEmail(db, DEMO_USER_EMAIL, demoPassword);
  } else if (!existing?.passwordHash) {
    printedPassword = generatePassword();
    passwordHash = await passwordHashForEmail(db, DEMO_USER_EMAIL, printedPassword);
  }
  return inTransaction(db, async (tx) => {
    // SPEC §13.5: the demo org chooses the worker's own AWS credentials (`npm start` lists it in
    // SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS); its admin may switch to roles.
    const org = await tx.org.upsert({
      where: { alias: 'acme-corp' },
      create: { alias: 'acme-corp', name: 'Acme Corp', ...(demoOrgAwsCredentials ? { awsCredentials: demoOrgAwsCredentials } : {}) },
      update: {},
      select: { id: true },
    });
    const found = await findOperator(tx);
    const user = found
      ? passwordHash
        ? await tx.user.update({ where: { id: found.id }, data: { passwordHash } })
        : found
      : await tx.user.create({ data: { email: DEMO_USER_EMAIL, name: 'Acme Operator', passwordHash } });
    await tx.membership.upsert({
      where: { userId_orgId: { userId: user.id, orgId: org.id } },
      create: { userId: user.id, orgId: org.id, role: 'admin' },
      update: {},
    });

    const scheduler = await findOrCreateBlob(tx, org.id, 'ops-scheduler', 'scheduler', 'Ops scheduler');
    const procedures = await findOrCreateBlob(tx, org.id, 'procedures', 'workflow', 'Procedures');
    const revisionId = procedures.defaultRevisionId!;
    if (!(await tx.workflowSession.findFirst({ where: { revisionId, alias: 'nightly-batch' } }))) {
      await tx.workflowSession.create({ data: { revisionId, alias: 'nightly-batch', state: 'open' } });
    }
    for (const [alias, name] of [['triage', 'Triage open tickets'], ['daily-report', 'Daily report']] as const) {
      if (!(await tx.definition.findFirst({ where: { revisionId, alias } }))) {
        await tx.definition.create({ data: { revisionId, alias, name, spec: { steps: [{ name }] } } });
      }
    }

    const schedulerRevisionId = scheduler.defaultRevisionId!;
    if ((await tx.schedule.count({ where: { revisionId: schedulerRevisionId } })) === 0) {
      const target = {
        target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
        workflow: { definition: 'triage' },
        input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
      };
      const now = new Date();
      await tx.schedule.create({
        data: {
          // Named by its alias, as a product-API create names it (SPEC §14).
          revisionId: schedulerRevisionId, alias: 'nightly-triage', name: 'nightly-triage', description: 'Triage the last day of tickets',
          repeat: 'recurring_cron', cronExpression: '0 2 * * ? *', timezone: 'Europe/Berlin', enabled: false,
          invocationTarget: target, nextFireAt: null, createdByType: 'user', createdById: user.id, createdAt: now, updatedAt: now,
        },
        // Only the id back: the migration tests seed databases older than the newest columns.
        select: { id: true },
      });
    }

    let printedKey: string | null = null;
    if (bootstrapApiKey) {
      await upsertKnownApiKey(tx, { key: bootstrapApiKey, name: BOOTSTRAP_KEY_NAME, role: 'write', orgId: org.id });
    } else if (!(await tx.apiKey.findFirst({ where: { orgId: org.id, name: BOOTSTRAP_KEY_NAME } }))) {
      const k = generateApiKey();
      await tx.apiKey.create({ data: { name: BOOTSTRAP_KEY_NAME, prefix: k.prefix, secretHash: k.secretHash, role: 'write', orgId: org.id } });
      printedKey = k.key;
    }
    if (bootstrapAccessKey) {
      await upsertKnownAccessKey(tx, { ...bootstrapAccessKey, name: BOOTSTRAP_KEY_NAME, role: 'write', orgId: org.id });
    }
    return { printedKey, printedPassword, orgId: org.id, userId: user.id, schedulerRevisionId, proceduresRevisionId: revisionId };
  });
}

if (process.argv[1]?.endsWith('seed.ts')) {
  // Several `migrate` runs started together each seed: one at a time (docs/decisions.md 396).
  withMigrationLock(loadConfig().databaseUrl, () => seed())
    .then(({ printedKey, printedPassword }) => {
      console.log('seed: org acme-corp, scheduler ops-scheduler, workflow blob procedures are in place');
      if (printedKey) {
        console.log(`seed: API key for org acme-corp (write), shown once — keep it:\n\n    ${printedKey}\n`);
      }
      if (printedPassword) {
        console.log(`seed: login for the web app, shown once — keep it (or set SCHEDULER_DEMO_PASSWORD):\n\n    ${DEMO_USER_EMAIL}\n    ${printedPassword}\n`);
      }
      if (printedKey || printedPassword) {
        const config = loadConfig();
        const file = writeCredentialsFile(
          config.databaseUrl,
          {
            ...(printedPassword ? { login: { email: DEMO_USER_EMAIL, password: printedPassword } } : {}),
            ...(printedKey ? { apiKey: { org: 'acme-corp', key: printedKey } } : {}),
          },
          `http://${config.hostname === '0.0.0.0' ? '127.0.0.1' : config.hostname}:${config.port}`,
        );
        console.log(`seed: the generated credentials are also in ${file} (readable by you only)`);
      }
    })
    .catch((e) => {
      console.error('seed failed:', e);
      process.exitCode = 1;
    })
    .finally(() => closeDb());
}
