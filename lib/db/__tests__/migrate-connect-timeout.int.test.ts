/**
 * docs/decisions.md 396: `npm run db:migrate` against a PostgreSQL address that accepts TCP and never
 * answers gives up after the connect timeout with an error naming host:port (never the password),
 * instead of hanging forever; a Unix-socket URL whose socket is missing names its directory. A real
 * listener; needs no database, so it runs in both dialects' runs.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { migrateDatabase, POSTGRES_CONNECT_TIMEOUT_MS } from '../migrate';

describe('PostgreSQL migrate against a server that never answers', () => {
  const sockets: net.Socket[] = [];
  // Accepts every connection and never writes a byte.
  const server = net.createServer((s) => void sockets.push(s));
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(loadConfig().testPortBase, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails after the connect timeout naming 127.0.0.1:<port>, without the password', async () => {
    const started = performance.now();
    const error = await migrateDatabase(`postgresql://scheduler:s3cret-pw@127.0.0.1:${port}/scheduler`).then(
      () => null,
      (e: Error) => e,
    );
    const elapsed = performance.now() - started;
    expect(error?.message).toMatch(new RegExp(`^cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}: `));
    expect(error?.message).not.toContain('s3cret-pw');
    expect(sockets.length).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(POSTGRES_CONNECT_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(POSTGRES_CONNECT_TIMEOUT_MS + 5_000);
  }, 30_000);
});

describe('PostgreSQL migrate on a Unix-socket URL whose socket is not there', () => {
  it('names the socket directory (the URL has a user and no host, as node-postgres reads it), not "Invalid URL"', async () => {
    const error = await migrateDatabase('postgresql://scheduler:s3cret-pw@/scheduler?host=/nonexistent-socket-dir').then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^cannot connect to PostgreSQL at \/nonexistent-socket-dir:\d+: /);
  }, 30_000);
});
