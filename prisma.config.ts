// Prisma CLI configuration. Prisma 6.19 with the JS schema engine runs offline through a driver
// adapter. DATABASE_URL unset or `file:` selects SQLite (prisma/schema.prisma, prisma/migrations);
// `postgresql://` selects the derived PostgreSQL schema (prisma/postgresql/, see scripts/generate.ts).
// PostgreSQL migrations are NOT applied by `prisma migrate deploy` (it fails through the pg adapter):
// `npm run db:migrate` applies them with lib/db/migrate.ts.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';

const url = process.env.DATABASE_URL ?? 'file:./data/scheduler.db';
const postgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: postgres ? path.join('prisma', 'postgresql', 'schema.prisma') : path.join('prisma', 'schema.prisma'),
  migrations: { path: postgres ? path.join('prisma', 'postgresql', 'migrations') : path.join('prisma', 'migrations') },
  async adapter() {
    if (postgres) return new PrismaPg({ connectionString: url, options: '-c TimeZone=UTC' });
    const file = url.replace(/^file:/, '');
    // A fresh clone has no data/ yet; SQLite creates the file, not its folder.
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new PrismaBetterSQLite3({ url: file });
  },
});
