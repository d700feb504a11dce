/**
 * A real HTTP receiver on loopback for webhook tests (never a mock of one). It records every request
 * (method, path, headers, body) and answers by path through `respond`. It listens on 127.0.0.1, on
 * the first free port from `TEST_PORT_BASE` (40 tried), or on any free port when that is 0.
 *
 * ```ts
 * const r = await startReceiver((req) => (req.path === '/fail' ? { status: 500 } : { status: 200, body: 'ok' }));
 * // r.url('/hook') → 'http://127.0.0.1:<port>/hook'; r.requests; await r.close();
 * ```
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config';

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Lowercase names, as Node reads them. */
  headers: Record<string, string>;
  body: string;
  /** When the request's body had arrived (ms, performance.now()). */
  at: number;
}

/** How to answer: a status (and body, headers), after `delayMs`; or `hang` (never answer). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  port: number;
  url: (path: string) => string;
  requests: ReceivedRequest[];
  /** Most requests in flight at once so far. */
  maxInFlight: () => number;
  close: () => Promise<void>;
}

export async function startReceiver(respond: (req: ReceivedRequest) => ReceiverAnswer): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      requests.push(received);
      const answer = respond(received);
      if (answer === 'hang') return;
      const send = () => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  const base = loadConfig().testPortBase;
  const port = await listen(server, base);
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Listen on the first free port of `base … base+39` (or any free port for base 0). */
async function listen(server: http.Server, base: number): Promise<number> {
  const ports = base === 0 ? [0] : Array.from({ length: 40 }, (_, i) => base + i);
  for (const port of ports) {
    const ok = await new Promise<boolean>((resolve) => {
      const onError = (e: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        if (e.code === 'EADDRINUSE') resolve(false);
        else throw e;
      };
      const onListening = () => {
        server.off('error', onError);
        resolve(true);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, '127.0.0.1');
    });
    if (ok) return (server.address() as AddressInfo).port;
  }
  throw new Error(`no free port in ${base}–${base + 39} for a test receiver`);
}

/** A loopback port nothing listens on (bound, then released), for connection failures. */
export async function closedPort(): Promise<number> {
  const r = await startReceiver(() => ({ status: 200 }));
  await r.close();
  return r.port;
}
