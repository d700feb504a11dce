/**
 * DATABASE_URL: SQLite as `file:<path>` or a plain path (the default `file:./data/scheduler.db`),
 * PostgreSQL as `postgres://` / `postgresql://`. Anything else with a `scheme://`, or a value still
 * wrapped in quotes, is a configuration error that never echoes the URL's credentials (decision 399).
 */
import { expect, it } from 'vitest';
import { loadConfig } from '../env';

/** The load's refusal of DATABASE_URL `url` (a test failure when it is accepted). */
function refusal(url: string): string {
  try {
    loadConfig({ DATABASE_URL: url });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`accepted ${url}`);
}

it('keeps every accepted form: the default, file: paths, a plain path, postgres:// and postgresql://', () => {
  expect(loadConfig({})).toMatchObject({ databaseUrl: 'file:./data/scheduler.db', dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: '' })).toMatchObject({ databaseUrl: 'file:./data/scheduler.db', dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: 'file:./data/other.db' })).toMatchObject({ dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: 'file:/var/lib/scheduler/scheduler.db' })).toMatchObject({ dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: 'file:///var/lib/scheduler/scheduler.db' })).toMatchObject({ dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: './data/plain.db' })).toMatchObject({ databaseUrl: './data/plain.db', dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: '/tmp/x.db' })).toMatchObject({ dialect: 'sqlite' });
  expect(loadConfig({ DATABASE_URL: 'postgresql://u:pw@h:5432/db' })).toMatchObject({ dialect: 'postgresql' });
  expect(loadConfig({ DATABASE_URL: 'postgres://u:pw@h:5432/db?sslmode=require' })).toMatchObject({ dialect: 'postgresql' });
});

it('refuses a quoted DATABASE_URL and an unknown scheme, naming the scheme but never the password', () => {
  for (const q of ['"postgresql://u:pw@h:5432/db"', "'postgresql://u:pw@h:5432/db'", '"./data/x.db"']) {
    const m = refusal(q);
    expect(m).toContain('DATABASE_URL: is wrapped in quotes');
    expect(m).not.toContain('pw');
  }
  const my = refusal('mysql://u:pw@h/db');
  expect(my).toContain('DATABASE_URL: the scheme "mysql" is not supported: use file:<path> (SQLite) or postgresql://… (PostgreSQL)');
  expect(my).not.toContain('pw');
  expect(refusal('POSTGRESQL://u:pw@h/db')).toContain('the scheme "POSTGRESQL" is not supported');
  expect(refusal('sqlite://./x.db')).toContain('the scheme "sqlite" is not supported');
  expect(refusal(' postgresql://u:pw@h/db')).not.toContain('pw');
});

it('refuses a postgresql:// URL that is surely a mistake: an unknown sslmode (named, with the modes clients know) or a URL that does not parse, never echoing the password', () => {
  for (const mode of ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']) {
    expect(loadConfig({ DATABASE_URL: `postgresql://u:pw@h:5432/db?sslmode=${mode}` }).dialect).toBe('postgresql');
  }
  // Unix sockets: no host at all, or a user (and password) with an empty host, as node-postgres reads them.
  for (const socket of ['postgresql:///db?host=/var/run/postgresql', 'postgresql://scheduler@/scheduler?host=/var/run/postgresql', 'postgresql://scheduler:pw@/scheduler?host=/var/run/postgresql&sslmode=disable']) {
    expect(loadConfig({ DATABASE_URL: socket }).dialect).toBe('postgresql');
  }
  const bogus = refusal('postgresql://u:secret-pw@h:5432/db?sslmode=bogus');
  expect(bogus).toContain('DATABASE_URL: sslmode "bogus" is not one of disable, allow, prefer, require, verify-ca, verify-full, no-verify');
  expect(refusal('postgresql://u:secret-pw@/db?host=/run/pg&sslmode=requir')).toContain('sslmode "requir" is not one of');
  // A repeated parameter: node-postgres reads the last one, so every one is checked.
  expect(refusal('postgresql://u:pw@h/db?sslmode=disable&sslmode=requir')).toContain('sslmode "requir" is not one of');
  expect(bogus).not.toContain('secret-pw');
  const unparsable = refusal('postgresql://u:secret-pw@h:notaport/db');
  expect(unparsable).toContain('DATABASE_URL: is not a valid postgresql:// URL');
  expect(unparsable).not.toContain('secret-pw');
});
