/**
 * The newcomer's first start: credentials the seed generates are kept in one file a database under
 * `data/`, readable by its owner only, and a later seed that generates only one of them keeps the other.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsFilePath, writeCredentialsFile } from '../credentials-file';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('credentials file', () => {
  it('is named after the database', () => {
    expect(path.basename(credentialsFilePath('file:./data/scheduler.db'))).toBe('scheduler.credentials.txt');
    expect(path.basename(credentialsFilePath('file:/var/lib/x/prod.sqlite'))).toBe('prod.credentials.txt');
    expect(path.basename(credentialsFilePath('postgresql://u:p@127.0.0.1:5432/scheduler'))).toBe('scheduler-postgresql.credentials.txt');
    // A Unix-socket URL with a user and no host, as node-postgres reads it.
    expect(path.basename(credentialsFilePath('postgresql://u@/sched?host=/var/run/postgresql'))).toBe('sched-postgresql.credentials.txt');
    expect(path.dirname(credentialsFilePath('file:./data/scheduler.db'))).toBe(path.resolve(import.meta.dirname, '..', '..', 'data'));
  });

  it('holds what was generated, mode 0600, and keeps an earlier entry a later seed did not regenerate', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'credentials-'));
    const url = 'file:./data/first.db';
    const file = writeCredentialsFile(url, { login: { email: 'operator@acme-corp.example', password: 'pw-one' }, apiKey: { org: 'acme-corp', key: 'sk_1_a' } }, 'http://127.0.0.1:3000', dir);
    expect(file).toBe(path.join(dir, 'first.credentials.txt'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeCredentialsFile(url, { apiKey: { org: 'acme-corp', key: 'sk_2_b' } }, 'http://127.0.0.1:3000', dir);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => !l.startsWith('#') && l);
    expect(lines).toEqual(['login_email: operator@acme-corp.example', 'login_password: pw-one', 'api_key_org: acme-corp', 'api_key: sk_2_b']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('its folder is made 0700, and a file that was readable by others is made 0600 before the secrets go in', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'credentials-'));
    const data = path.join(dir, 'data');
    const file = writeCredentialsFile('file:./data/new.db', { apiKey: { org: 'acme-corp', key: 'sk_1' } }, 'http://127.0.0.1:3000', data);
    expect([statSync(data).mode & 0o777, statSync(file).mode & 0o777]).toEqual([0o700, 0o600]);
    const old = path.join(data, 'old.credentials.txt');
    writeFileSync(old, '# written by an older version\n', { mode: 0o644 });
    writeCredentialsFile('file:./data/old.db', { apiKey: { org: 'acme-corp', key: 'sk_2' } }, 'http://127.0.0.1:3000', data);
    expect(statSync(old).mode & 0o777).toBe(0o600);
  });
});
