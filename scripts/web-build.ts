/**
 * Whether the web app's production build (`.next`) is the build of the sources as they are now: a
 * fingerprint of everything `next build` reads (app, components, lib — tests and generated clients
 * aside — plus next.config.ts, middleware.ts, package-lock.json, tsconfig.json), kept in
 * `.next/source-hash` after a build. `npm start` builds when it is stale (scripts/start.ts); the
 * systemd units test serves the repository's build and rebuilds a stale one the same way.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The fingerprint (sha256 hex) of what `next build` reads under `root`: paths, sizes and mtimes of the source folders, contents of the config files. */
export function sourceHash(root: string): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!['__tests__', 'generated'].includes(e.name)) walk(p);
      } else h.update(`${p}:${statSync(p).size}:${statSync(p).mtimeMs}\n`);
    }
  };
  for (const d of ['app', 'components', 'lib']) walk(path.join(root, d));
  for (const f of ['next.config.ts', 'middleware.ts', 'package-lock.json', 'tsconfig.json']) {
    const p = path.join(root, f);
    if (existsSync(p)) h.update(readFileSync(p));
  }
  return h.digest('hex');
}

const stampOf = (root: string) => path.join(root, '.next', 'source-hash');

/** True when `root/.next` holds a build (BUILD_ID) stamped with `hash` (default: the sources' fingerprint now). */
export function buildIsCurrent(root: string, hash = sourceHash(root)): boolean {
  const stamp = stampOf(root);
  return existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
}

/** Stamp the build just made in `root/.next` with `hash` (the fingerprint taken before it began). */
export function stampBuild(root: string, hash: string): void {
  writeFileSync(stampOf(root), hash);
}
