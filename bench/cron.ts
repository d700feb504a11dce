/**
 * Time engine benchmark: next-occurrence throughput of lib/cron against croner and cron-parser on the
 * same corpus, each given the equivalent expression and the same timezone.
 *
 *   npx tsx bench/cron.ts        (npm run bench:cron)
 *
 * Each library parses once outside the timed loop; one op = "next occurrence strictly after an
 * instant", cycling through 256 instants spread over 2024–2027. Each cell runs ROUNDS timed rounds
 * after a warm-up and reports the median ops/s. A library whose answers differ from ours for the first
 * five UTC occurrences is shown as ≠ (not equivalent) and left out of the ratios; one that cannot
 * express the expression is n/a.
 */
import { Cron } from 'croner';
import { CronExpressionParser } from 'cron-parser';
import { nextOccurrence, nextOccurrences, parseCronExpression } from '../lib/cron';

const ROUNDS = 5;
const ROUND_MS = 15;
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];

const CORPUS = [
  // ordinary
  '* * * * ? *',
  '*/5 * * * ? *',
  '0/15 * * * ? *',
  '7/20 * * * ? *',
  '0 * * * ? *',
  '30 2 * * ? *',
  '0 9 * * ? *',
  '0 9 ? * MON-FRI *',
  '0 9-17 ? * MON-FRI *',
  '0,30 8-18 ? * 2-6 *',
  '15 10 1 * ? *',
  '0 0 1 1 ? *',
  '0 12 ? * 1 *',
  '0 22-2 * * ? *',
  '0 0 ? * FRI-MON *',
  '0 0 1 NOV-FEB ? *',
  '0 0 */2 * ? *',
  '0 0 1 */3 ? *',
  '0 12 * * ? 2025-2030',
  '0 0 1 1 ? */2',
  // L, W, #
  '0 0 L * ? *',
  '0 0 L-3 * ? *',
  '0 0 LW * ? *',
  '0 0 15W * ? *',
  '0 0 1W * ? *',
  '0 0 ? * 6L *',
  '0 0 ? * FRIL *',
  '0 9 ? * 2#1 *',
  '0 0 ? * 6#5 *',
  '0 0 ? * L *',
  // rare dates
  '0 0 29 2 ? *',
  '0 0 31 * ? *',
  '59 23 31 12 ? *',
  '0 12 29 2 ? 2028-2100',
  '0 0 ? 2 1#5 *',
];

type Next = (after: Date) => Date | null;
type Library = { name: string; prepare: (aws: string, zone: string) => Next };

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const LIMITS: [number, number, string[]?][] = [[0, 59], [0, 23], [1, 31], [1, 12, MONTH_NAMES], [1, 7, DAY_NAMES]];

/**
 * The six AWS fields with the forms the other libraries refuse rewritten equivalently: `a/s` as
 * `a-max/s`, and a wrapping range `a-b` as `a-max,min-b`. Day fields with L, W or # are left alone.
 */
function fields(aws: string): string[] {
  return aws.split(' ').map((field, index) => {
    if (index > 4 || /[LW#?]/i.test(field.replace(/JUL|WED/gi, ''))) return field;
    const [min, max, names = []] = LIMITS[index];
    const value = (token: string) => (/^\d+$/.test(token) ? Number(token) : names.indexOf(token.toUpperCase()) + min);
    return field
      .split(',')
      .map((item) => {
        const [range, step] = item.split('/');
        const bounds = range.split('-');
        if (range !== '*' && bounds.length === 1 && step !== undefined) return `${range}-${max}/${step}`;
        if (bounds.length === 2 && value(bounds[0]) > value(bounds[1])) {
          if (step !== undefined) throw new Error('n/a');
          return `${bounds[0]}-${max},${min}-${bounds[1]}`;
        }
        return item;
      })
      .join(',');
  });
}

const LIBRARIES: Library[] = [
  {
    name: 'lib/cron',
    prepare: (aws, zone) => {
      const parsed = parseCronExpression(aws);
      return (after) => nextOccurrence(parsed, zone, after);
    },
  },
  {
    // croner 7-part (seconds … year), Quartz weekdays (1 = Sunday), `nL` written `n#L`, `?` as `*`.
    name: 'croner',
    prepare: (aws, zone) => {
      const [mi, h, dom, mon, dow, year] = fields(aws);
      if (/L-/i.test(dom)) throw new Error('n/a');
      const weekday = dow === 'L' ? '7' : dow.replace(/^(\w+)L$/i, '$1#L');
      const pattern = ['0', mi, h, dom, mon, weekday, year].map((f) => (f === '?' ? '*' : f)).join(' ');
      const job = new Cron(pattern, { timezone: zone, alternativeWeekdays: true, paused: true });
      return (after) => job.nextRun(after);
    },
  },
  {
    // cron-parser 6-part (seconds … day-of-week), no year, no W, 0-based weekdays.
    name: 'cron-parser',
    prepare: (aws, zone) => {
      const [mi, h, dom, mon, dow, year] = fields(aws);
      if (year !== '*' || /W|L-/i.test(dom)) throw new Error('n/a');
      const numbered = dow.replace(/^(\w{3})L$/i, (_, name: string) => `${DAY_NAMES.indexOf(name.toUpperCase()) + 1}L`);
      const weekday = dow === 'L' ? '6' : numbered.replace(/(^|[,-])(\d)/g, (_, before: string, d: string) => `${before}${Number(d) - 1}`);
      const pattern = ['0', mi, h, dom, mon, weekday].map((f) => (f === '?' ? '*' : f)).join(' ');
      const expression = CronExpressionParser.parse(pattern, { tz: zone, currentDate: new Date('2024-01-01T00:00:00Z') });
      return (after) => {
        expression.reset(after);
        try {
          return expression.next().toDate();
        } catch {
          return null;
        }
      };
    },
  },
];

// 256 instants spread over 2024–2027 (deterministic).
const INSTANTS = Array.from({ length: 256 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + ((i * 2_654_435_761) % 126_230_400) * 1000));

function opsPerSecond(next: Next): number {
  let sink = 0;
  const round = () => {
    let ops = 0;
    const started = performance.now();
    let elapsed = 0;
    // Batches grow 1, 2, 4 … 256 ops, so slow libraries stop soon after ROUND_MS.
    for (let batch = 1; elapsed < ROUND_MS; batch = Math.min(batch * 2, 256)) {
      for (let i = 0; i < batch; i++) sink += next(INSTANTS[(ops + i) & 255])?.getTime() ?? 0;
      ops += batch;
      elapsed = performance.now() - started;
    }
    return (ops / elapsed) * 1000;
  };
  round(); // warm-up
  const samples = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
  if (sink === 42) console.log(''); // keep results alive
  return samples[Math.floor(ROUNDS / 2)];
}

/** The library's first five UTC occurrences match ours (so the translated expression is equivalent). */
function agrees(library: Library, aws: string): boolean {
  const next = library.prepare(aws, 'UTC');
  const ours = nextOccurrences(aws, 'UTC', new Date('2025-01-01T00:00:00Z'), 5).map((d) => d.getTime());
  let after = new Date('2025-01-01T00:00:00Z');
  for (const expected of ours) {
    const got = next(after);
    if (got?.getTime() !== expected) return false;
    after = got;
  }
  return true;
}

type Cell = number | 'n/a' | '≠';

function measure(library: Library, aws: string, zone: string): Cell {
  let next: Next;
  try {
    next = library.prepare(aws, zone);
    if (library.name !== 'lib/cron' && !agrees(library, aws)) return '≠';
  } catch {
    return 'n/a';
  }
  return opsPerSecond(next);
}

const fmt = (cell: Cell) => (typeof cell === 'number' ? Math.round(cell).toLocaleString('en-US') : cell);
const ratio = (ours: Cell, theirs: Cell) => (typeof ours === 'number' && typeof theirs === 'number' ? `${(ours / theirs).toFixed(1)}×` : '–');
/** Throughput cycling evenly through the expressions: n / Σ(1 / ops). */
const corpusOps = (cells: number[]) => cells.length / cells.reduce((sum, ops) => sum + 1 / ops, 0);

console.log(`# lib/cron time engine benchmark — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${CORPUS.length} expressions`);
console.log(`median of ${ROUNDS} rounds × ${ROUND_MS} ms per cell; one op = next occurrence after an instant\n`);

// Warm-up: let the JIT settle for every library before the first timed cell.
for (const library of LIBRARIES) {
  for (const aws of CORPUS) {
    try {
      const next = library.prepare(aws, ZONES[1]);
      for (let i = 0; i < 50; i++) next(INSTANTS[i]);
    } catch {
      // n/a for this library
    }
  }
}

const summary: string[] = [];
let slowest = { ops: Infinity, aws: '', zone: '' };
for (const zone of ZONES) {
  console.log(`## ${zone}\n`);
  console.log('| expression | lib/cron ops/s | croner ops/s | vs croner | cron-parser ops/s | vs cron-parser |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const rows = CORPUS.map((aws) => {
    const [ours, croner, cronParser] = LIBRARIES.map((library) => measure(library, aws, zone));
    if (typeof ours === 'number' && ours < slowest.ops) slowest = { ops: ours, aws, zone };
    console.log(`| \`${aws}\` | ${fmt(ours)} | ${fmt(croner)} | ${ratio(ours, croner)} | ${fmt(cronParser)} | ${ratio(ours, cronParser)} |`);
    return { ours: ours as number, croner, cronParser };
  });
  const versus = (pick: (row: (typeof rows)[number]) => Cell) => {
    const both = rows.filter((row) => typeof pick(row) === 'number');
    const ours = corpusOps(both.map((row) => row.ours));
    const theirs = corpusOps(both.map((row) => pick(row) as number));
    const worst = Math.min(...both.map((row) => row.ours / (pick(row) as number)));
    return `${fmt(theirs)} | ${(ours / theirs).toFixed(1)}× (min ${worst.toFixed(1)}×, ${both.length} expr.)`;
  };
  summary.push(`| ${zone} | ${fmt(corpusOps(rows.map((row) => row.ours)))} | ${versus((row) => row.croner)} | ${versus((row) => row.cronParser)} |`);
  console.log('');
}

console.log('## Summary (corpus throughput = expressions / Σ 1/ops over the expressions both libraries run)\n');
console.log('| timezone | lib/cron ops/s (all) | croner ops/s | lib/cron vs croner | cron-parser ops/s | lib/cron vs cron-parser |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const line of summary) console.log(line);
console.log(`\nSlowest expression for lib/cron: \`${slowest.aws}\` in ${slowest.zone}: ${fmt(slowest.ops)} ops/s`);
