/**
 * `npm run db:migrate`: apply the committed migrations to DATABASE_URL (default: data/scheduler.db).
 * SQLite: `prisma/migrations` through `prisma migrate deploy`. PostgreSQL: `prisma/postgresql/migrations`
 * through lib/db/migrate.ts (own `_migrations` table, one transaction per migration, advisory lock).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '../lib/config';
import { looseModeNote, PRIVATE_DIR_MODE } from '../lib/db';
import { migrateDatabase } from '../lib/db/migrate';

const root = path.resolve(import.meta.dirname, '..');
// A configuration error: one plain line, exit 1 (decision 399).
const config = loadConfigOrExit((problems) => console.error(`migrate: invalid configuration: ${problems.join('; ')}`));
if (config.dialect === 'sqlite') mkdirSync(path.join(root, 'data'), { recursive: true, mode: PRIVATE_DIR_MODE });
migrateDatabase(config.databaseUrl)
  .then(({ applied, total, notes }) => {
    // What this run did, after the end state: "applied" names only the migrations applied now.
    const now = applied.length ? `${applied.length} applied now: ${applied.join(', ')}` : 'none applied now';
    console.log(`migrate: ${config.dialect} schema is current (${total} migrations, ${now})`);
    const modeNote = config.dialect === 'sqlite' ? looseModeNote(config.databaseUrl.replace(/^file:/, '')) : null;
    for (const note of [...notes, ...(modeNote ? [modeNote] : [])]) console.log(`migrate: ${note}`);
  })
  .catch((e: unknown) => {
    console.error(`migrate: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
