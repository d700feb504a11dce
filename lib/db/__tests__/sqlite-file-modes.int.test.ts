/**
 * The SQLite file holds secrets (docs/decisions.md 165): a database made by the migration or by a
 * client is created owner-only, the file and its -wal/-shm 0600 and the folders made for it 0700, and
 * so is the server key file and its folder (the credentials file: scripts/__tests__/credentials-file).
 * Real files, under the process's own umask.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetServerSecretKey, serverSecretKey } from '../../config';
import { testDialect } from '../../testing/test-db';
import { createDb, looseModeNote } from '..';
import { migrateDatabase } from '../migrate';

const dir = mkdtempSync(path.join(os.tmpdir(), 'scheduler-modes-'));
const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(testDialect() !== 'sqlite')('files that hold secrets are owner-only', () => {
  it('a migrated database: folders 0700, the file and its -wal and -shm 0600', async () => {
    const file = path.join(dir, 'data', 'nested', 'scheduler.db');
    await migrateDatabase(`file:${file}`);
    const db = createDb(`file:${file}`);
    await db.org.create({ data: { alias: 'modes-org', name: 'Modes' } });
    expect(existsSync(`${file}-wal`) && existsSync(`${file}-shm`)).toBe(true);
    expect([file, `${file}-wal`, `${file}-shm`].map(modeOf)).toEqual(['600', '600', '600']);
    expect([path.join(dir, 'data'), path.join(dir, 'data', 'nested')].map(modeOf)).toEqual(['700', '700']);
    expect(looseModeNote(file)).toBeNull();
    await db.$disconnect();
  });

  it('a client opening a new file creates it 0600; an existing file open to others keeps its mode and gets a note', async () => {
    const file = path.join(dir, 'client.db');
    const db = createDb(`file:${file}`);
    await db.$disconnect();
    expect(modeOf(file)).toBe('600');
    const loose = path.join(dir, 'loose.db');
    writeFileSync(loose, '', { mode: 0o644 });
    createDb(`file:${loose}`);
    expect(modeOf(loose)).toBe('644');
    expect(looseModeNote(loose)).toMatch(/readable by other users \(mode 0644\).*chmod 600/);
  });

  it('the generated server key file and its folder', () => {
    resetServerSecretKey();
    const keyFile = path.join(dir, 'keys', 'scheduler-secret.key');
    serverSecretKey({ secretKey: null, secretKeyFile: keyFile });
    resetServerSecretKey();
    expect([modeOf(path.dirname(keyFile)), modeOf(keyFile)]).toEqual(['700', '600']);
  });
});
