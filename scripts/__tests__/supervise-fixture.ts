/**
 * Test fixture: a Supervisor (scripts/supervisor.ts) as `npm start` runs one, over two small Node
 * children that print their pid and wait: `web` (its exit stops everything) and `worker` (restarted
 * with back-off). argv: the back-off's initial, max and reset spans in ms. SIGINT / SIGTERM stop both.
 */
import { Supervisor } from '../supervisor';

const [initialMs, maxMs, resetAfterMs] = process.argv.slice(2).map(Number);
const idle = (name: string) => ['-e', `console.log('${name} pid', process.pid); setInterval(() => {}, 1000)`];
const supervisor = new Supervisor({ cwd: process.cwd(), backoff: { initialMs, maxMs, resetAfterMs }, stopTimeoutMs: 5000 });
supervisor.start({ name: 'web app', command: process.execPath, argv: idle('web app') });
supervisor.start({ name: 'worker', command: process.execPath, argv: idle('worker'), restart: true });
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => void supervisor.stop(0));
