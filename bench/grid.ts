/**
 * Schedule grid benchmark (SPEC §10): does a scheduler's page stay fast with 10,000 schedules?
 *
 *   npm run bench:grid                   (npx tsx bench/grid.ts; SQLite, the default database)
 *   npm run bench:grid -- --postgres     (also PostgreSQL, on the server of TEST_POSTGRES_URL;
 *                                         see `bash scripts/postgres-local.sh`)
 *   npm run bench:grid -- --quick        (fewer rounds, for a smoke run)
 *
 * For each size (10 and 10,000 schedules in the seeded "Ops scheduler", each schedule with three runs,
 * fields varied: zones, targets, descriptions, disabled and completed ones) the script:
 * 1. times the page's domain calls in-process (browseSchedules + lastRunStatuses + enabledCounts);
 * 2. starts the real web app (`scripts/start.ts --web-only`, the production build) on that database,
 *    logs in as the demo operator, and times whole page requests (server render + transfer over
 *    loopback) for the grid's URL variants: first page, sorted by next fire / by name descending,
 *    a text filter, a filter by enabled, and page 100;
 * 3. opens the first page in Chromium, waits for its rows, clicks "Next fire" and checks that the
 *    rows come back sorted by next fire (the earliest one first, as the database says).
 * It prints medians and p90s and the 10,000 / 10 ratio of the medians. Machines are noisy: no
 * pass/fail on time; the functional checks of step 3 do fail the run.
 */
import { chromium } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Actor } from '../lib/auth';
import { insertRuns, type Db, type Dialect, type RunInsert } from '../lib/db';
import { browseSchedules, enabledCounts, lastRunStatuses, type ScheduleSortKey } from '../lib/schedules';
import { insertSchedules, type ScheduleFixture } from '../lib/testing/insert-schedules';
import { createTestDb, type TestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';
import { stopWeb, waitForWeb } from './web-app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const DIALECTS = process.argv.includes('--postgres') ? (['sqlite', 'postgresql'] as const) : (['sqlite'] as const);
const SIZES = [10, 10_000];
const ROUNDS = QUICK ? 8 : 30;
const WARMUP = QUICK ? 3 : 8;
const PORT = Number(process.env.BENCH_PORT ?? 3950);
const PASSWORD = 'bench-operator-password-0123';
const EMAIL = 'operator@acme-corp.example';
const ZONES = ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York', 'Australia/Sydney'];

/** Grid URL variants: label → query string. */
const VARIANTS: [string, string, { sort?: ScheduleSortKey; descending?: boolean; query?: string; enabled?: boolean; page?: number }][] = [
  ['first page', '', {}],
  ['sorted by next fire', '?sort=next_fire', { sort: 'next_fire' }],
  ['sorted by name, descending', '?sort=-name', { sort: 'name', descending: true }],
  ['text filter "berlin"', '?q=berlin', { query: 'berlin' }],
  ['disabled only', '?enabled=false', { enabled: false }],
  ['page 100', '?page=100', { page: 100 }],
];

interface Stats {
  median: number;
  p90: number;
}
function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.floor(s.length * 0.9))] };
}

async function time(rounds: number, warmup: number, fn: () => Promise<void>): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return stats(out);
}

/** A seeded database whose scheduler holds `size` schedules (the seed's own count included). */
async function fixture(dialect: Dialect, size: number): Promise<{ t: TestDb; revision: { id: string; blobId: string }; actor: Actor }> {
  const t = await createTestDb(dialect);
  const ctx = await seed(t.db, undefined, PASSWORD);
  const rev = await t.db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  const seeded = await t.db.schedule.count({ where: { revisionId: rev.id } });
  const now = Date.now();
  const fixtures: ScheduleFixture[] = Array.from({ length: size - seeded }, (_, i) => ({
    revisionId: rev.id,
    alias: i % 4 === 0 ? null : `job-${String(i).padStart(5, '0')}`,
    createdBy: { type: 'user', id: ctx.userId },
    description: i % 3 === 0 ? null : `Sweep tickets of queue ${i % 97}`,
    cronExpression: `${i % 60} ${i % 24} * * ? *`,
    timezone: ZONES[i % ZONES.length],
    enabled: i % 10 !== 7,
    nextFireAt: new Date(now + 60_000 + ((i * 7919) % 86_400) * 1000),
    invocationTarget: {
      target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: i % 2 ? 'nightly-batch' : 'adhoc-runs' },
      workflow: { definition: 'triage' },
      input_data: [],
    },
  }));
  const ids = await insertSchedules(t.db, fixtures);
  const runs: RunInsert[] = ids.flatMap((scheduleId, i) =>
    [3, 2, 1].map((h) => ({
      id: randomUUID(),
      scheduleId,
      scheduledFor: new Date(now - h * 3_600_000 - i),
      trigger: 'schedule',
      status: (i + h) % 13 === 0 ? 'invocation_error' : 'success',
      result: (i + h) % 13 === 0 ? { error: 'session_not_found', message: 'bench' } : { execution_id: randomUUID() },
      executionId: null,
      createdAt: new Date(now - h * 3_600_000 - i + 150),
    })),
  );
  for (let i = 0; i < runs.length; i += 3000) await insertRuns(t.db, runs.slice(i, i + 3000));
  return { t, revision: { id: rev.id, blobId: rev.blobId }, actor: { type: 'user', id: ctx.userId, roleCap: null } };
}

async function domainTimes(db: Db, revision: { id: string; blobId: string }, actor: Actor): Promise<Stats[]> {
  const out: Stats[] = [];
  for (const [, , opts] of VARIANTS) {
    out.push(
      await time(ROUNDS, WARMUP, async () => {
        const page = await browseSchedules({ db, actor, revision, ...opts });
        await Promise.all([lastRunStatuses({ db, actor, revision, scheduleIds: page.schedules.map((s) => s.id) }), enabledCounts({ db, actor, revision })]);
      }),
    );
  }
  return out;
}

function startWeb(url: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--web-only'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(PORT), DATABASE_URL: url, SCHEDULER_DEMO_PASSWORD: PASSWORD, NODE_ENV: 'production' },
    detached: true,
  });
}

async function login(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${PORT}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${PORT}` },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error('login set no cookie');
  return cookie;
}

async function pageTimes(revisionId: string, cookie: string): Promise<Stats[]> {
  const out: Stats[] = [];
  for (const [label, qs] of VARIANTS) {
    out.push(
      await time(ROUNDS, WARMUP, async () => {
        const res = await fetch(`http://127.0.0.1:${PORT}/schedulers/${revisionId}${qs}`, { headers: { cookie } });
        const html = await res.text();
        if (res.status !== 200 || !html.includes('aria-label="Schedules"')) throw new Error(`${label}: status ${res.status}, no grid in the page`);
      }),
    );
  }
  return out;
}

/** Loads the first page in Chromium and sorts it by next fire; returns the two times (ms). */
async function browserCheck(earliestId: string, revisionId: string, cookie: string, size: number): Promise<{ loadMs: number; sortMs: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [name, value] = cookie.split(';')[0].split('=');
    await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }]);
    const page = await context.newPage();
    const rows = page.locator('table[aria-label="Schedules"] tbody tr');
    let t = performance.now();
    await page.goto(`http://127.0.0.1:${PORT}/schedulers/${revisionId}`);
    await rows.nth(Math.min(size, 50) - 1).waitFor();
    const loadMs = performance.now() - t;
    const count = await rows.count();
    if (count !== Math.min(size, 50)) throw new Error(`first page shows ${count} rows, expected ${Math.min(size, 50)}`);

    t = performance.now();
    await page.getByRole('button', { name: /Next fire/ }).click();
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Next fire' }).waitFor();
    await rows.first().locator(`a[href$="/schedules/${earliestId}"]`).first().waitFor();
    const sortMs = performance.now() - t;
    return { loadMs, sortMs };
  } finally {
    await browser.close();
  }
}

const fmt = (n: number) => n.toFixed(1).padStart(8);

async function main(): Promise<void> {
  console.log(`Schedule grid bench · ${ROUNDS} rounds after ${WARMUP} warm-up · medians (p90) in ms · node ${process.version}`);
  for (const dialect of DIALECTS) {
    const results: { size: number; domain: Stats[]; page: Stats[]; browser: { loadMs: number; sortMs: number } }[] = [];
    for (const size of SIZES) {
      process.stdout.write(`\n[${dialect}] ${size.toLocaleString('en-US')} schedules: seeding… `);
      const { t, revision, actor } = await fixture(dialect, size);
      process.stdout.write('domain… ');
      const domain = await domainTimes(t.db, revision, actor);
      const earliest = await t.db.schedule.findFirstOrThrow({ where: { revisionId: revision.id, nextFireAt: { not: null } }, orderBy: [{ nextFireAt: 'asc' }, { id: 'asc' }] });
      // The web app migrates and seeds the file at start: it needs the database to itself (SQLite's lock).
      await t.db.$disconnect();
      process.stdout.write('web app… ');
      const web = startWeb(t.url);
      try {
        await waitForWeb(web, `http://127.0.0.1:${PORT}`);
        const cookie = await login();
        const page = await pageTimes(revision.id, cookie);
        process.stdout.write('browser… ');
        const browser = await browserCheck(earliest.id, revision.id, cookie, size);
        results.push({ size, domain, page, browser });
      } finally {
        await stopWeb(web);
        await t.cleanup();
      }
      console.log('done');
    }
    const [small, large] = results;
    console.log(`\n${dialect}: grid page with ${small.size} vs ${large.size.toLocaleString('en-US')} schedules`);
    console.log(`${'variant'.padEnd(28)} ${'page @10'.padStart(17)} ${'page @10k'.padStart(17)} ${'ratio'.padStart(6)}   ${'domain @10'.padStart(17)} ${'domain @10k'.padStart(17)}`);
    VARIANTS.forEach(([label], i) => {
      const a = small.page[i];
      const b = large.page[i];
      const da = small.domain[i];
      const db = large.domain[i];
      console.log(
        `${label.padEnd(28)} ${fmt(a.median)} (${fmt(a.p90).trim()}) ${fmt(b.median)} (${fmt(b.p90).trim()}) ${(b.median / a.median).toFixed(2).padStart(5)}×   ${fmt(da.median)} (${fmt(da.p90).trim()}) ${fmt(db.median)} (${fmt(db.p90).trim()})`,
      );
    });
    const worst = Math.max(...VARIANTS.map((_, i) => large.page[i].median / small.page[i].median));
    console.log(`worst page ratio 10k/10: ${worst.toFixed(2)}× (target: within 2×)`);
    console.log(`browser (Chromium, 1280×800): first page rendered in ${small.browser.loadMs.toFixed(0)} ms @10, ${large.browser.loadMs.toFixed(0)} ms @10k; sorted by next fire in ${small.browser.sortMs.toFixed(0)} ms @10, ${large.browser.sortMs.toFixed(0)} ms @10k (rows checked against the database)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
