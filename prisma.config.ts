// Prisma CLI configuration. Prisma 6.19 with the JS schema engine runs offline through a driver
// adapter: SQLite by default (DATABASE_URL unset or `file:`), PostgreSQL for `postgresql://` URLs.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

const url = process.env.DATABASE_URL ?? 'file:./data/scheduler.db';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    return new PrismaBetterSQLite3({ url: url.replace(/^file:/, '') });
  },
});
