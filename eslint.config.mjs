// `npm run lint` (run by `npm test` and CI): typescript-eslint's recommended rules, and the folder
// table of docs/architecture.md as import boundaries (import/no-restricted-paths). LAYERS below IS
// that table: change the two together. scripts/__tests__/lint.boundaries.int.test.ts proves the rules
// bite (a lib/cron file importing lib/db fails).
import { readdirSync, readFileSync } from 'node:fs';
import { URL } from 'node:url';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

const CODE = ['**/*.ts', '**/*.tsx', '**/*.mjs'];
const TESTS = ['**/__tests__/**'];

/** Every project folder the table speaks of (the element an import lands in). */
const LIB = ['cron', 'config', 'errors', 'ids', 'log', 'db', 'auth', 'workflows', 'targets', 'engine', 'schedules', 'api', 'testing'].map((f) => `lib/${f}`);
const TOP = ['app', 'components', 'worker', 'cli', 'prisma', 'e2e', 'bench', 'scripts'];
const FOLDERS = [...LIB, ...TOP];

/** Any lib folder through its entry (pure scripts and tooling: prisma/seed.ts, scripts/, bench/). */
const ANY_LIB = LIB.filter((f) => f !== 'lib/testing');
/** `lib/<x>/contract.ts` of every lib folder: the shapes the browser and the CLI share. */
const CONTRACTS = LIB.map((f) => `${f}/contract.ts`);

/**
 * The folder table: who may import whom (docs/architecture.md, STYLE §5). A lib folder is entered
 * through `index.ts` (and `contract.ts`) only; `lib/x/file.ts` names one more allowed file. Code under
 * `__tests__/` is ruled by TEST_LAYERS below.
 */
const LAYERS = {
  'lib/cron': [],
  'lib/config': [],
  'lib/errors': [],
  'lib/ids': [],
  // The structured log (one line format for web and worker): node built-ins only.
  'lib/log': [],
  'lib/db': ['lib/config', 'lib/errors', 'lib/cron'],
  'lib/auth': ['lib/db', 'lib/errors', 'lib/config', 'lib/ids'],
  'lib/workflows': ['lib/auth', 'lib/db', 'lib/errors', 'lib/ids', 'lib/config'],
  // Target drivers: each type's contract and delivery; the workflow driver reaches the catalog through its gateway.
  'lib/targets': ['lib/workflows', 'lib/auth', 'lib/db', 'lib/errors', 'lib/config', 'lib/ids'],
  // The fire engine: knows target types only through lib/targets' registry; facts, facades and the
  // activity log come in as parameters (EngineDeps), never as imports of lib/schedules or lib/api.
  'lib/engine': ['lib/cron', 'lib/targets', 'lib/db', 'lib/errors', 'lib/config', 'lib/ids'],
  'lib/schedules': ['lib/cron', 'lib/engine', 'lib/targets', 'lib/workflows', 'lib/auth', 'lib/db', 'lib/errors', 'lib/config', 'lib/ids'],
  // lib/api/eventbridge/ is part of lib/api. lib/db only through the doors below (DOORS).
  'lib/api': ['lib/schedules', 'lib/workflows', 'lib/auth', 'lib/errors', 'lib/config', 'lib/ids', 'lib/cron', 'lib/log'],
  'lib/testing': [...ANY_LIB, 'lib/db/migrate.ts', 'prisma'],
  app: ['lib/api', 'lib/schedules', 'lib/workflows', 'lib/auth', 'lib/errors', 'lib/cron', 'lib/log', 'components'],
  // The pure folders (cron, errors, ids) run in the browser too.
  components: ['lib/cron', 'lib/errors', 'lib/ids', ...CONTRACTS],
  // lib/db to connect and close only (NO_DB_QUERIES below keeps it to those names).
  worker: ['lib/schedules', 'lib/engine', 'lib/config', 'lib/errors', 'lib/db', 'lib/log'],
  cli: [...CONTRACTS, 'lib/cron', 'lib/errors', 'lib/ids'],
  prisma: ANY_LIB,
  // The contracts' schemas and the time engine serve as oracles; everything else is a public surface.
  e2e: ['lib/cron', 'lib/errors', ...CONTRACTS],
  bench: [...ANY_LIB, 'lib/testing', 'prisma', 'worker'],
  scripts: [...ANY_LIB, 'lib/db/migrate.ts'],
};

/** Single files allowed more than their folder (each says why in its own header). */
const DOORS = {
  // The web process's edge: the one module of lib/api that connects (runtime()).
  'lib/api/runtime.ts': ['lib/db'],
  // Readiness reads which migrations the database has applied (lib/db's migrationStatus; no write).
  'lib/api/health.ts': ['lib/db'],
  // The EventBridge facade's own table (schedule groups, SPEC §14): its verbs query and write it.
  'lib/api/eventbridge/groups/**': ['lib/db'],
  // The worker's edge layers the facades it serves on the fire engine (their facts, passed in).
  'worker/main.ts': ['lib/api/eventbridge/fire-facts.ts'],
  // Next.js middleware runs in the Edge runtime: it cannot load lib/auth's whole entry (Node crypto, Prisma).
  'middleware.ts': ['lib/auth/session-cookie.ts'],
  // The request guard in front of Next.js loads only the guard itself (pure: no database, no Next.js),
  // not lib/api's whole entry with the domain and Prisma behind it.
  'scripts/web-server.ts': ['lib/api/edge-guard.ts'],
  // The seed writes the credentials it generates where `npm start` (scripts/start.ts) reads them: one
  // file-format module (node:fs and lib/config's URL reading only) for both.
  'prisma/seed.ts': ['scripts/credentials-file.ts'],
  // A worker process starts with the worker's node flags (worker/launch.ts: constants, no imports).
  'scripts/start.ts': ['worker/launch.ts'],
  'lib/testing/worker-process.ts': ['worker/launch.ts'],
  // Playwright's config reads the e2e port.
  'playwright.config.ts': ['e2e'],
  // Global setup seeds its fixtures through the domain, as the seed script does.
  'e2e/setup/**': ANY_LIB,
  'e2e/global-setup.ts': ANY_LIB,
  // The EventBridge e2e reads an AWS SDK refusal as the integration tests do (a pure helper, no imports).
  'e2e/eventbridge-sdk.spec.ts': ['lib/testing/sdk-refusal.ts'],
  // The outage e2e silences PostgreSQL with the integration tests' loopback proxy (node:net only).
  'e2e/database-outage.spec.ts': ['lib/testing/cutting-proxy.ts'],
};

/**
 * Tests may import what they test: their own folder's files, any lib entry, the test helpers
 * (lib/testing), the seed, the worker loop and the CLI modules.
 */
const TEST_LAYERS = [...ANY_LIB, 'lib/testing', 'lib/db/migrate.ts', 'prisma', 'worker', 'cli', 'components'];

const rel = (p) => `./${p}`;

/** The no-restricted-paths zones that keep `target` (a folder or file) to `allowed`, within `own`. */
function zonesFor(target, own, allowed) {
  const zones = [];
  for (const folder of FOLDERS) {
    if (folder === own) continue;
    const whole = allowed.includes(folder);
    const files = allowed.filter((a) => a.endsWith('.ts') && a.startsWith(`${folder}/`)).map((a) => `./${a.slice(folder.length + 1)}`);
    const message = `${own === target ? own : target} may not import ${folder}${whole ? ' except through its entry (index.ts / contract.ts)' : ''}: see the folder table in docs/architecture.md (eslint.config.mjs LAYERS).`;
    if (whole && folder.startsWith('lib/') && folder !== 'lib/testing') {
      // A lib folder is entered through its index (and contract); sub-folders are its own business.
      zones.push({ target: rel(target), from: rel(folder), except: [...new Set(['./index.ts', './contract.ts', ...files])], message });
    } else if (!whole) {
      zones.push({ target: rel(target), from: rel(folder), ...(files.length ? { except: files } : {}), message });
    }
  }
  return zones;
}

const boundary = (zones) => ({ 'import/no-restricted-paths': ['error', { zones }] });

const doorFiles = Object.keys(DOORS);
const layerBlocks = Object.entries(LAYERS).map(([folder, allowed]) => ({
  name: `layers/${folder}`,
  files: CODE.map((c) => `${folder}/${c}`),
  ignores: [...TESTS, ...doorFiles.filter((d) => d.startsWith(`${folder}/`))],
  rules: boundary(zonesFor(folder, folder, allowed)),
}));
const doorBlocks = Object.entries(DOORS).map(([door, extra]) => {
  const own = FOLDERS.find((f) => door.startsWith(`${f}/`));
  const allowed = [...(own ? LAYERS[own] : []), ...extra];
  const target = door.replace(/\/\*\*$/, '');
  return { name: `layers/door ${door}`, files: door.endsWith('/**') ? CODE.map((c) => `${target}/${c}`) : [door], rules: boundary(zonesFor(target, own ?? target, allowed)) };
});
const testBlocks = FOLDERS.map((folder) => ({
  name: `layers/${folder} tests`,
  files: CODE.map((c) => `${folder}/**/__tests__/${c}`),
  rules: boundary(zonesFor(folder, folder, TEST_LAYERS)),
}));

/** Edges: where the configuration is read and the process's client is opened. */
/**
 * Single files that may read `process.env` besides lib/config and the edges below (each says why).
 */
const ENV_READERS = {
  // Next.js middleware runs in the Edge runtime, where lib/config (node:net) cannot load; the one value
  // it reads, NODE_ENV, is written into its bundle by Next.js at build time ('unsafe-eval' in dev's CSP).
  'middleware.ts': 'NODE_ENV',
  // The AWS SDK reads process.env itself; the moto tests give it dummy credentials and no
  // instance-metadata lookup, so no SDK call of a test can leave loopback.
  // startOwnMoto points the SDK at a test file's own IAM-enforcing moto server (AWS_ENDPOINT_URL), then back.
  'lib/testing/moto.ts': 'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_EC2_METADATA_DISABLED, AWS_ENDPOINT_URL',
  // A test's preload in a worker process (spawnWorker's `preload`): where its memory target writes.
  'lib/testing/memory-target-worker.ts': 'MEMORY_TARGET_LOG, MEMORY_TARGET_HOLD_MS',
};

/**
 * STYLE §7: a target type is a driver in lib/targets/<type>/, named once in the registry; outside
 * lib/targets no code branches on a type's name. The names are the registry's: each
 * lib/targets/<type>/contract.ts declares `defineTargetContract({ type: '<name>', … })`.
 */
const TARGET_TYPE_NAMES = new Set(
  readdirSync(new URL('./lib/targets', import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('__'))
    .flatMap((d) => {
      let text = '';
      try {
        text = readFileSync(new URL(`./lib/targets/${d.name}/contract.ts`, import.meta.url), 'utf8');
      } catch {
        return [];
      }
      return [...text.matchAll(/defineTargetContract\(\{\s*type: '([^']+)'/g)].map((m) => m[1]);
    }),
);
/** Names that hold a target type: `invocation_target_type`, `invocationTargetType`, `targetType`. */
const TARGET_DISCRIMINANT = /^(invocation_?[tT]arget_?[tT]ype|targetType|target_type)$/;

/** The name an expression reads a value by (`s.invocation_target_type` → that), or null. */
function nameOf(node) {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.type === 'ChainExpression') return nameOf(node.expression);
  if (node.type === 'TSNonNullExpression' || node.type === 'TSAsExpression') return nameOf(node.expression);
  if (node.type === 'LogicalExpression' && node.operator === '??') return nameOf(node.left);
  return null;
}
const isString = (node) => node?.type === 'Literal' && typeof node.value === 'string';
/** A value that says which target type something is: a discriminant, or a shown target's `kind` compared with a type's name. */
const holdsTargetType = (node, literal) => {
  const name = nameOf(node);
  return name !== null && (TARGET_DISCRIMINANT.test(name) || (name === 'kind' && TARGET_TYPE_NAMES.has(literal)));
};

const targetTypeBranch = {
  meta: { type: 'problem', schema: [], messages: { branch: "Do not branch on a target type's name ('{{name}}') outside lib/targets: ask the registry (lib/targets/contract.ts, components/targets) instead (STYLE §7)." } },
  create(context) {
    return {
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        for (const [value, other] of [[node.left, node.right], [node.right, node.left]]) {
          if (isString(value) && holdsTargetType(other, value.value)) context.report({ node, messageId: 'branch', data: { name: value.value } });
        }
      },
      SwitchStatement(node) {
        for (const c of node.cases) {
          if (isString(c.test) && holdsTargetType(node.discriminant, c.test.value)) context.report({ node: c, messageId: 'branch', data: { name: c.test.value } });
        }
      },
    };
  },
};

const EDGES = ['lib/config/**', 'lib/api/runtime.ts', 'lib/testing/**', 'worker/main.ts', 'cli/connection.ts', 'prisma/**', 'scripts/**', 'bench/**', 'e2e/**', ...TESTS];
const DOMAIN = ['lib/**', 'app/**', 'components/**', 'worker/**', 'cli/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'lib/db/generated/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    name: 'project/base',
    files: CODE,
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: true },
      'import/extensions': ['.ts', '.tsx', '.mjs', '.js'],
    },
    rules: {
      // The boundary rule skips an import it cannot resolve: every import must resolve, so it never passes vacuously.
      'import/no-unresolved': 'error',
      // Matching control characters is the point where the code does it (safe redirects, ASCII checks).
      'no-control-regex': 'off',
      // `_name` marks a parameter or binding kept for its position (server-action signatures, rest omits).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  { name: 'project/node-scripts', files: ['**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
  ...layerBlocks,
  ...doorBlocks,
  ...testBlocks,
  {
    // STYLE §2.7, §6.1: only lib/config reads the environment (scripts, benches, e2e, the standalone
    // examples, the CLI's connection module and the tools' own config files are their own edges;
    // ENV_READERS above).
    name: 'project/no-process-env',
    files: CODE,
    ignores: ['lib/config/**', 'scripts/**', 'bench/**', 'e2e/**', 'examples/**', 'cli/connection.ts', '*.config.ts', '*.config.mjs', ...Object.keys(ENV_READERS)],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through lib/config (loadConfig at the edge); pass values in.' },
      ],
    },
  },
  {
    // docs/architecture.md "Transactions": a public domain verb opens its own transaction through
    // lib/db's inTransaction; callers (server actions, the API, the worker) never open one.
    name: 'project/transactions-and-config-at-the-edge',
    files: DOMAIN.flatMap((d) => CODE.map((c) => `${d.replace('/**', '')}/${c}`)),
    ignores: ['lib/db/**', ...EDGES],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through lib/config (loadConfig at the edge); pass values in.' },
        { property: '$transaction', message: 'Open transactions with inTransaction (lib/db) inside the domain verb, never at its callers.' },
        { property: '$queryRawUnsafe', message: 'Raw SQL lives in lib/db/sql/, one statement per module.' },
        { property: '$executeRawUnsafe', message: 'Raw SQL lives in lib/db/sql/, one statement per module.' },
        { property: '$queryRaw', message: 'Raw SQL lives in lib/db/sql/, one statement per module.' },
        { property: '$executeRaw', message: 'Raw SQL lives in lib/db/sql/, one statement per module.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='loadConfig']",
          message: 'Configuration is parsed once at the edge (lib/api/runtime.ts, worker/main.ts) and passed in.',
        },
        { selector: "CallExpression[callee.name='getDb']", message: 'The process-wide client is opened at the edge (lib/api/runtime.ts, worker/main.ts) and passed in.' },
      ],
    },
  },
  {
    // STYLE §7: outside lib/targets (the drivers and their registry) no code branches on a target type's name.
    name: 'project/no-target-type-branch',
    files: ['lib', 'app', 'components', 'worker', 'cli'].flatMap((d) => CODE.map((c) => `${d}/${c}`)),
    ignores: ['lib/targets/**', 'lib/testing/**', ...TESTS],
    plugins: { project: { rules: { 'no-target-type-branch': targetTypeBranch } } },
    rules: { 'project/no-target-type-branch': 'error' },
  },
  {
    // STYLE §5: the worker imports lib/db to connect and close only.
    name: 'project/worker-connects-only',
    files: CODE.map((c) => `worker/${c}`),
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)lib/db(/|$)',
              allowImportNames: ['getDb', 'closeDb', 'Db'],
              message: 'The worker connects and closes through lib/db; reads and writes go through lib/schedules.',
            },
          ],
        },
      ],
    },
  },
  {
    // STYLE §5: client components hold nothing server-only.
    name: 'project/components-client-only',
    files: CODE.map((c) => `components/${c}`),
    ignores: TESTS,
    rules: {
      'no-restricted-imports': ['error', { paths: ['server-only', '@prisma/client', 'pg', 'better-sqlite3'], patterns: [{ regex: '^node:' }] }],
    },
  },
  {
    // Tests read JSON answers of any shape; the contract schemas are what check them.
    name: 'project/tests-read-any-json',
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
