/**
 * What lib/db assumes of Prisma beyond its public API (lib/db/prisma-internals.ts, docs/decisions.md
 * 127), checked against the installed version, and that the version is the one package.json pins: an
 * upgrade that breaks an assumption fails here, naming it, instead of somewhere in the fire path.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { dialectOfTransactionClient } from '../prisma-internals';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, Record<string, string> | string>;

/** The Prisma packages the product loads, and the adapters it builds on or uses as the CLI's (prisma.config.ts). */
const PRISMA_FAMILY = ['prisma', '@prisma/client', '@prisma/driver-adapter-utils', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg'];

describe('Prisma, as lib/db relies on it', () => {
  it('is pinned to one exact version for the whole family, and that version is installed', () => {
    const pkg = readJson('package.json');
    const declared = { ...(pkg.dependencies as Record<string, string>), ...(pkg.devDependencies as Record<string, string>) };
    const pins = PRISMA_FAMILY.map((name) => [name, declared[name]] as const);
    for (const [name, pin] of pins) expect(pin, `package.json: ${name} must be an exact version (lib/db depends on its behaviour)`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(new Set(pins.map(([, pin]) => pin)).size, `package.json: the Prisma family must share one version: ${JSON.stringify(Object.fromEntries(pins))}`).toBe(1);
    for (const [name, pin] of pins) expect(readJson(`node_modules/${name}/package.json`).version, `installed ${name} is not the pinned ${pin}: run npm install`).toBe(pin);
  });

  describe('a transaction client', () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb();
    });
    afterAll(() => t.cleanup());

    it(`still tells its datasource provider through Prisma's _activeProvider (dialectOfDb of a db.$transaction called directly)`, async () => {
      const BROKEN = `Prisma no longer exposes _activeProvider on clients and transaction clients: lib/db/prisma-internals.ts needs another way to tell a transaction client's dialect`;
      expect(() => dialectOfTransactionClient(t.db), BROKEN).not.toThrow();
      expect(dialectOfTransactionClient(t.db), BROKEN).toBe(t.dialect);
      const inside = await t.db.$transaction(async (tx) => dialectOfTransactionClient(tx));
      expect(inside, BROKEN).toBe(t.dialect);
    });
  });
});
