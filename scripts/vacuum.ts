/**
 * `npm run db:vacuum`: rebuild the SQLite file of DATABASE_URL in incremental auto-vacuum mode
 * (docs/decisions.md 118), so the retention sweep gives swept space back to the file system. Needed
 * once for a file larger than `migrate` converts by itself (lib/db/migrate.ts `SQLITE_CONVERT_MAX_BYTES`);
 * also compacts the file fully. Stop the web app and the workers first: VACUUM holds the write lock
 * for the whole rewrite (about 15 s per GB here) and needs free disk for a second copy of the file.
 * PostgreSQL needs nothing of the kind (autovacuum makes deleted rows' space reusable).
 */
import { statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '../lib/config';
import { prepareSqliteFile } from '../lib/db/migrate';

const config = loadConfigOrExit((problems) => console.error(`db:vacuum: invalid configuration: ${problems.join('; ')}`));
if (config.dialect !== 'sqlite') {
  console.log('db:vacuum: DATABASE_URL is PostgreSQL; nothing to do (autovacuum reuses swept space)');
  process.exit(0);
}
const file = config.databaseUrl.replace(/^file:/, '');
const bytes = statSync(file).size;
const fsStat = statfsSync(path.dirname(path.resolve(file)));
const free = fsStat.bavail * fsStat.bsize;
if (free < 2 * bytes) {
  console.error(`db:vacuum: ${file} is ${(bytes / 1e6).toFixed(0)} MB and VACUUM needs about twice that free; ${(free / 1e6).toFixed(0)} MB are free`);
  process.exit(1);
}
const notes = prepareSqliteFile(config.databaseUrl, { force: true });
console.log(`db:vacuum: ${notes[0] ?? `${file} is already in incremental auto-vacuum mode`}`);
