/**
 * DATABASE_PREPARED_STATEMENTS (README "Configuration", lib/db/pg-prepared.ts): `on` (the default) or
 * `off`; anything else is refused at load with the variable named.
 */
import { expect, it } from 'vitest';
import { loadConfig } from '..';

it('is on unless set to off', () => {
  expect(loadConfig({}).databasePreparedStatements).toBe(true);
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '' }).databasePreparedStatements).toBe(true);
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'on' }).databasePreparedStatements).toBe(true);
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false);
});

it('refuses any other value, naming the two it takes', () => {
  expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' })).toThrow('DATABASE_PREPARED_STATEMENTS: must be "on" or "off", got "false"');
  expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'OFF' })).toThrow('DATABASE_PREPARED_STATEMENTS: must be "on" or "off", got "OFF"');
});
