/** `npm run db:migrate`: apply the committed migrations to DATABASE_URL (default: data/scheduler.db). */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../lib/config';

const root = path.resolve(import.meta.dirname, '..');
const config = loadConfig();
if (config.dialect === 'sqlite') mkdirSync(path.join(root, 'data'), { recursive: true });
const r = spawnSync(path.join(root, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, DATABASE_URL: config.databaseUrl },
  encoding: 'utf8',
});
if (r.status !== 0) {
  process.stderr.write(r.stdout + r.stderr);
  process.exit(r.status ?? 1);
}
const applied = /(\d+) migrations? found/.exec(r.stdout);
console.log(`migrate: database schema is current${applied ? ` (${applied[1]} migrations)` : ''}`);
