/**
 * What the raw ceilings (bench/raw-worker.ts, bench/raw-webhooks.ts) share: their settings from the
 * environment (DATABASE_URL, BATCH default 500, POLL_MS default 50 ms), SIGTERM as the stop, and the
 * stored instant forms of the database's dialect.
 */
import { preparedName, sqlInstant, type Dialect } from '../lib/db';

export const url = process.env.DATABASE_URL ?? '';
export const batch = Number(process.env.BATCH ?? 500);
export const pollMs = Number(process.env.POLL_MS ?? 50);

let stopped = false;
process.on('SIGTERM', () => {
  stopped = true;
});
/** True once SIGTERM arrived: the loop finishes what it holds and exits. */
export const stopping = () => stopped;

export const dialect: Dialect = url.startsWith('file:') ? 'sqlite' : 'postgresql';
/** An instant as the product stores it (lib/db/sql/instant.ts). */
export const instant = (d: Date) => sqlInstant(dialect, d);
/** A stored instant read back: SQLite's TEXT form, or PostgreSQL's timestamp text (UTC, no zone). */
export const parse = (stored: string) => new Date(dialect === 'sqlite' ? stored : `${stored.replace(' ', 'T')}Z`);

/**
 * A node-postgres query of `text` as a prepared statement under the name the product gives it
 * (lib/db/pg-prepared.ts `preparedName`, decision 429): the ceilings get the same saving of PostgreSQL's parse and plan.
 */
export const prepared = (text: string, values: unknown[] = []) => ({ name: preparedName(text), text, values });
