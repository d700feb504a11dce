/**
 * Tests only: running the product as an operator would (the container image, the systemd units) and
 * waiting for it — the readiness probe, loopback ports, and phases that print how long they took.
 */
import { createServer } from 'node:net';
import { loadConfig } from '../config';

/** The readiness probe polled before a web app is used: 200 once the database answers, its migrations are current and a worker is alive. */
export const READY_PATH = '/api/health/ready';
/** The health report (JSON with `workers_alive`, …) handed to `waitReady`'s `until` once ready. */
export const HEALTH_PATH = '/api/health';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** A free loopback port: `TEST_PORT_BASE + 30 + n` when TEST_PORT_BASE is set, else one the system picks. */
export async function freePort(n: number): Promise<number> {
  const base = loadConfig().testPortBase;
  if (base) return base + 30 + n;
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Poll `base` + READY_PATH every second until it answers 200 and `base` + HEALTH_PATH answers 200 with
 * a body `until` accepts; return that health body. `alive()` answers null while the process under test runs, else why it is gone (e.g. its last
 * log lines); then, or after `timeoutMs`, this throws with that text.
 */
export async function waitReady(
  base: string,
  alive: () => Promise<string | null>,
  until: (body: Record<string, unknown>) => boolean = () => true,
  timeoutMs = 240_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok200 = (path: string) =>
      fetch(`${base}${path}`).then(
        async (r) => (r.status === 200 ? ((await r.json()) as Record<string, unknown>) : null),
        () => null,
      );
    const body = (await ok200(READY_PATH)) ? await ok200(HEALTH_PATH) : null;
    if (body && until(body)) return body;
    const gone = await alive();
    if (gone !== null || Date.now() > deadline) throw new Error(`${base}${READY_PATH} is not ready${gone !== null ? '; the process is gone' : ` after ${timeoutMs} ms`}:\n${gone ?? ''}`);
    await sleep(1000);
  }
}

/** Named phases, each timed and printed (`<label>: <name>: 12.3 s`), and a table of them all. */
export class Phases {
  readonly timings: [string, number][] = [];
  constructor(private readonly label: string) {}

  /** Run `fn` as phase `name`; prints and keeps its duration (seconds) whether it passes or throws. */
  async run<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const began = Date.now();
    try {
      return await fn();
    } finally {
      const s = (Date.now() - began) / 1000;
      this.timings.push([name, s]);
      console.log(`${this.label}: ${name}: ${s.toFixed(1)} s`);
    }
  }

  /** Every phase and its seconds, one a line, with the total. */
  table(): string {
    const total = this.timings.reduce((a, [, s]) => a + s, 0);
    return [...this.timings, ['total', total] as [string, number]].map(([n, s]) => `  ${n.padEnd(48)} ${s.toFixed(1).padStart(7)} s`).join('\n');
  }
}
