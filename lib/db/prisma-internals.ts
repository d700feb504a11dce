/**
 * The one place lib/db reads something Prisma does not document, and why it cannot be avoided
 * (docs/decisions.md 127). Pinned for the installed Prisma version (package.json pins it exactly) by
 * lib/db/__tests__/prisma-internals.int.test.ts, which fails, naming what changed, when an upgrade
 * breaks it.
 *
 * **The datasource provider of a transaction client.** A client made by `createDb`, and the
 * transaction client `inTransaction` hands out, are known without it (lib/db/client.ts). But tests
 * and benches also open transactions with `db.$transaction` directly and pass that transaction
 * client to lib/db/sql, which must pick its SQLite or PostgreSQL text; Prisma's public API has no way
 * to ask a client, or a transaction client, for its provider. Prisma keeps it in the client's
 * `_activeProvider` field, which a transaction client forwards.
 */
import type { Dialect } from './dialect';

/**
 * The dialect of a Prisma client or transaction client, from Prisma's `_activeProvider`.
 * @throws when the client does not say (`sqlite` or `postgresql`).
 */
export function dialectOfTransactionClient(client: object): Dialect {
  const provider = (client as { _activeProvider?: unknown })._activeProvider;
  if (provider === 'postgresql' || provider === 'sqlite') return provider;
  throw new Error(`lib/db: unknown Prisma provider ${String(provider)} (not a client made by createDb, and Prisma's _activeProvider did not say)`);
}
