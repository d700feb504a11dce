/**
 * The SQLite file holds secrets (password hashes, sealed access key secrets, signing secrets,
 * webhook headers), so it is created readable by its owner only (docs/decisions.md 165): its folder
 * 0700 when this code makes it, the file 0600; SQLite gives the `-wal` and `-shm` files it creates the
 * database file's mode. An existing file or folder keeps its mode (`looseModeNote` says when it is
 * open to others).
 */
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

/** Mode of a folder this code creates for a database (owner only). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of a database file this code creates (owner read and write). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Make `file`'s folder (0700, with any missing parents) and the empty file (0600) when they do not
 * exist yet; leave existing ones as they are. `file` is a path (no `file:` prefix).
 */
export function ensurePrivateFile(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    // `wx`: create only; an existing file (another process's, or ours) is left alone.
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** A note for the operator when `file` can be read by other users (group or other bits set), else null. */
export function looseModeNote(file: string): string | null {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return null;
  }
  if ((mode & 0o077) === 0) return null;
  return `${file} is readable by other users (mode ${mode.toString(8).padStart(4, '0')}) and holds secrets: \`chmod 600 ${file}\` (and its -wal/-shm files), \`chmod 700\` its folder`;
}
