/**
 * `npm run lint` enforces the folder table of docs/architecture.md (eslint.config.mjs LAYERS): these
 * tests run ESLint's Node API with the project's own configuration on offending code placed in the
 * folders the table speaks of, and expect the boundary errors (and no error where the table allows).
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/**
 * The `ruleId: message` lines ESLint reports for `code` as if it were the file `file` (repo-relative),
 * leaving out unused-import warnings (the probes import and do nothing else).
 */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars').map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the folder table is enforced', () => {
  it('a file in lib/cron that imports lib/db fails lint (a real file on disk, linted as `npm run lint` lints it)', async () => {
    const file = path.join(ROOT, 'lib', 'cron', `lint-probe-${randomUUID().slice(0, 8)}.ts`);
    await writeFile(file, "import { getDb } from '../db';\n\nexport const probe = getDb;\n");
    try {
      const [result] = await eslint.lintFiles([file]);
      expect(result.errorCount).toBe(1);
      expect(result.messages[0]).toMatchObject({ ruleId: 'import/no-restricted-paths', line: 1, severity: 2 });
      expect(result.messages[0].message).toContain('lib/cron may not import lib/db');
    } finally {
      await rm(file, { force: true });
    }
  });

  it.each([
    ['lib/cron/probe.ts', "import { getDb } from '@/lib/db';", 'lib/cron may not import lib/db'],
    ['lib/cron/probe.ts', "import { toError } from '../errors';", 'lib/cron may not import lib/errors'],
    ['lib/workflows/probe.ts', "import type { Blob } from '../db/generated/sqlite/client';", 'lib/workflows may not import lib/db except through its entry'],
    ['lib/api/probe.ts', "import { getDb } from '../db';", 'lib/api may not import lib/db'],
    ['app/probe.ts', "import { getDb } from '@/lib/db';", 'app may not import lib/db'],
    ['app/probe.ts', "import { loadConfig } from '@/lib/config';", 'app may not import lib/config'],
    ['components/probe.tsx', "import { createSchedule } from '@/lib/schedules';", 'components may not import lib/schedules'],
    ['worker/probe.ts', "import { workflowCommands } from '../lib/workflows';", 'worker may not import lib/workflows'],
    ['lib/schedules/probe.ts', "import { createTestDb } from '../testing/test-db';", 'lib/schedules may not import lib/testing'],
    ['cli/probe.ts', "import { getDb } from '../lib/db';", 'cli may not import lib/db'],
  ])('%s: %s is refused', async (file, line, expected) => {
    const messages = await lint(file, `${line}\n`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^import\/no-restricted-paths: /);
    expect(messages[0]).toContain(expected);
  });

  it.each([
    ['lib/workflows/probe.ts', "import type { Db } from '../db';"],
    ['lib/schedules/probe.ts', "import { nextOccurrence } from '../cron';"],
    ['lib/api/runtime.ts', "import { getDb } from '../db';"],
    ['app/probe.ts', "import { runtime } from '@/lib/api';"],
    ['components/probe.tsx', "import { ScheduleCreateInput } from '@/lib/schedules/contract';"],
    ['worker/main.ts', "import { closeDb, getDb } from '../lib/db';"],
    ['lib/cron/__tests__/probe.test.ts', "import { createTestDb } from '../../testing/test-db';"],
    ['bench/probe.ts', "import { Worker } from '../worker/worker';"],
  ])('%s: %s is allowed', async (file, line) => {
    expect(await lint(file, `${line}\n`)).toEqual([]);
  });

  it('the worker imports lib/db to connect and close only', async () => {
    expect(await lint('worker/probe.ts', "import { claimDue } from '../lib/db';\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: 'claimDue' import from '..\/lib\/db' is restricted/),
    ]);
  });

  it('an import that does not resolve fails (the boundary rule never passes for want of a path)', async () => {
    expect(await lint('lib/schedules/probe.ts', "import { nothing } from '../no-such-folder';\n")).toEqual([
      expect.stringMatching(/^import\/no-unresolved: /),
    ]);
  });
});

describe('configuration and transactions stay at the edge', () => {
  it('process.env is read only in lib/config', async () => {
    expect(await lint('lib/schedules/probe.ts', 'export const limit = process.env.WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE;\n')).toEqual([
      expect.stringMatching(/^no-restricted-properties: 'process.env' is restricted/),
    ]);
    expect(await lint('lib/config/probe.ts', 'export const limit = process.env.WORKFLOW_EXECUTIONS_PER_SESSION_PER_MINUTE;\n')).toEqual([]);
  });

  it('the domain does not load the configuration (limits are passed in)', async () => {
    expect(await lint('lib/workflows/probe.ts', "import { loadConfig } from '../config';\n\nexport const limits = loadConfig().limits;\n")).toEqual([
      expect.stringMatching(/^no-restricted-syntax: Configuration is parsed once at the edge/),
    ]);
  });

  it('a server action does not open a transaction (the domain verb does)', async () => {
    const code = 'declare const db: { $transaction: (fn: () => Promise<void>) => Promise<void> };\n\nexport const save = () => db.$transaction(async () => {});\n';
    expect(await lint('app/probe.ts', code)).toEqual([expect.stringMatching(/^no-restricted-properties: '\$transaction' is restricted/)]);
    expect(await lint('lib/db/probe.ts', code)).toEqual([]);
  });
});
