/**
 * DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS (README "Configuration", lib/db
 * `PostgresTimeouts`, decision 432): 10 s and 60 s by default; the query bound can be turned off with
 * 0, the connect bound cannot go below 100 ms, neither can exceed a Node.js timer's longest delay;
 * anything not a whole number is refused at load.
 */
import { expect, it } from 'vitest';
import { loadConfig } from '..';

it('defaults to 10 s for a connection and 60 s for an answer', () => {
  const c = loadConfig({});
  expect(c.databaseConnectTimeoutMs).toBe(10_000);
  expect(c.databaseQueryTimeoutMs).toBe(60_000);
});

it('takes whole numbers of ms, 0 turning the query bound off', () => {
  const c = loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '2500', DATABASE_QUERY_TIMEOUT_MS: '0' });
  expect(c.databaseConnectTimeoutMs).toBe(2_500);
  expect(c.databaseQueryTimeoutMs).toBe(0);
});

it('refuses a connect bound below 100 ms and values that are not whole numbers, naming the variable', () => {
  expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  expect(() => loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '1.5' })).toThrow(/DATABASE_QUERY_TIMEOUT_MS/);
  expect(() => loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_QUERY_TIMEOUT_MS/);
});
