/**
 * The server key that seals access key secrets at rest (SPEC §14): `SCHEDULER_SECRET_KEY` (32 bytes,
 * hex or base64) when set; otherwise the file `SCHEDULER_SECRET_KEY_FILE` (default
 * `./data/scheduler-secret.key`), generated on first use with mode 0600 and an exclusive create, so
 * concurrent first starts (web, worker, seed) agree on one key. Several hosts sharing one PostgreSQL
 * database must share the key: set SCHEDULER_SECRET_KEY on each.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeKey, loadConfig, type AppConfig } from './env';

let cachedKey: Buffer | undefined;

/**
 * The server key: from the configuration, else the key file (created with 32 random bytes when
 * missing). Cached for the process. `config` defaults to the process's (`loadConfig()`).
 * @throws Error when the key file exists but does not hold a 32-byte key.
 */
export function serverSecretKey(config: Pick<AppConfig, 'secretKey' | 'secretKeyFile'> = loadConfig()): Buffer {
  if (cachedKey) return cachedKey;
  if (config.secretKey) return (cachedKey = config.secretKey);
  const file = path.resolve(config.secretKeyFile);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // `wx`: exclusive create. If another process created it first, read theirs.
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (w) {
      if ((w as NodeJS.ErrnoException).code !== 'EEXIST') throw w;
    }
    text = readFileSync(file, 'utf8');
  }
  const key = decodeKey(text);
  if (!key) throw new Error(`the server key file ${file} does not hold a 32-byte key (64 hex digits or base64)`);
  return (cachedKey = key);
}

/** Tests only: forget the cached server key (after changing SCHEDULER_SECRET_KEY_FILE). */
export function resetServerSecretKey(): void {
  cachedKey = undefined;
}

