/** Which SQL dialect a DATABASE_URL selects (no I/O; safe to import anywhere in lib/db). */
export type Dialect = 'sqlite' | 'postgresql';

/** `postgresql://…` or `postgres://…` selects PostgreSQL; anything else (`file:…`) is a SQLite file. */
export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgresql' : 'sqlite';
}
