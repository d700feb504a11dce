/**
 * The web process: Next.js (production build, or `--dev`) behind a small Node HTTP server that looks
 * at every request first (lib/api/edge-guard.ts): it resolves the client address, host and scheme
 * from the socket and, only behind SCHEDULER_TRUSTED_PROXIES, from `X-Forwarded-*`; refuses foreign-
 * origin and oversized server actions and oversized API bodies before Next.js reads them; and sends
 * HSTS on answers to https requests. `npm start`, `npm run web` and `npm run dev` run this file
 * (scripts/start.ts); `next start` alone would believe any client's `X-Forwarded-*` headers.
 *
 * Usage: `node --import tsx scripts/web-server.ts [--dev]` (PORT, HOSTNAME from the environment).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import path from 'node:path';
import next from 'next';
import { guardRequest, proxyMatcher } from '../lib/api/edge-guard';
import { loadConfig } from '../lib/config';

/** HSTS for answers to https requests: one year, subdomains included (docs/decisions.md). */
const HSTS = 'max-age=31536000; includeSubDomains';

const dev = process.argv.includes('--dev');
const config = loadConfig();
const root = path.resolve(import.meta.dirname, '..');
const isTrusted = proxyMatcher(config.http.trustedProxies);

const app = next({ dev, dir: root, hostname: config.hostname, port: config.port });
const handle = app.getRequestHandler();

/** A refused body is read and dropped up to this many bytes (so the client sees the answer), then the connection is cut. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function drain(req: IncomingMessage): void {
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.resume();
}

async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const encrypted = Boolean((req.socket as TLSSocket).encrypted);
  const { forwarding, refusal } = guardRequest(
    { method: req.method ?? 'GET', url: req.url ?? '/', remoteAddress: req.socket.remoteAddress ?? '', headers: req.headers },
    isTrusted,
    encrypted,
  );
  if (forwarding.proto === 'https') res.setHeader('strict-transport-security', HSTS);
  if (refusal) {
    // The body never reaches Next.js: it is dropped (or, past 16 MiB, the connection is cut).
    drain(req);
    answer(res, refusal.status, refusal.body);
    return;
  }
  await handle(req, res);
}

await app.prepare();
const server = createServer((req, res) => {
  onRequest(req, res).catch((e: unknown) => {
    console.error(JSON.stringify({ level: 'error', msg: 'web server: unhandled request error', error: e instanceof Error ? e.message : String(e) }));
    if (!res.headersSent) answer(res, 500, { error: { code: 'internal_error', message: 'internal error' } });
    else res.destroy();
  });
});
if (dev) {
  const upgrade = app.getUpgradeHandler();
  server.on('upgrade', (req, socket, head) => void upgrade(req, socket, head));
}
server.listen(config.port, config.hostname, () => {
  console.log(`web: listening on http://${config.hostname}:${config.port}${config.http.trustedProxies.length ? ` (trusted proxies: ${config.http.trustedProxies.join(', ')})` : ''}`);
});
for (const s of ['SIGINT', 'SIGTERM'] as const) {
  process.on(s, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
