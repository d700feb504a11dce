/**
 * The web process: Next.js (production build, or `--dev`) behind a small Node HTTP server that looks
 * at every request first (lib/api/edge-guard.ts): it resolves the client address, host and scheme
 * from the socket and, only behind SCHEDULER_TRUSTED_PROXIES, from `X-Forwarded-*`; refuses foreign-
 * origin and oversized server actions and oversized API bodies before Next.js reads them; and sends
 * HSTS on answers to https requests. `npm start`, `npm run web` and `npm run dev` run this file
 * (scripts/start.ts); `next start` alone would believe any client's `X-Forwarded-*` headers.
 *
 * Each request gets an id (a sane incoming `X-Request-Id`, else a new UUID: lib/log `requestIdOf`),
 * answered as `X-Request-Id`, passed on to Next.js in the request's `X-Request-Id` header and kept as
 * the request context (lib/log `withRequestContext`), so every log line written for the request carries
 * `requestId`. Every API request (`/api/…`, `/auth/…`, `/metrics`, the EventBridge-compatible paths) gets one
 * access line at `info` when its answer ends: method, path WITHOUT the query string (it may hold
 * tokens) and with a check-in or invitation token masked, status, durationMs, requestId — never a
 * header or a body. Pages and Next.js's static files
 * get the same line at `debug`.
 *
 * Usage: `node --import tsx scripts/web-server.ts [--dev]` (PORT, HOSTNAME from the environment).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { TLSSocket } from 'node:tls';
import path from 'node:path';
import next from 'next';
import { guardRequest, isApiPath, loggablePath, proxyMatcher } from '../lib/api/edge-guard';
import { loadConfigOrExit } from '../lib/config';
import { configureLog, logProcessWarnings, log, logger, requestIdOf, withRequestContext } from '../lib/log';

/** HSTS for answers to https requests: one year, subdomains included (docs/decisions.md). */
const HSTS = 'max-age=31536000; includeSubDomains';

const dev = process.argv.includes('--dev');
// A configuration error: one JSON line, exit 1 (decision 399).
const config = loadConfigOrExit((problems) => {
  configureLog({ service: 'web' });
  logger.error('invalid configuration', { problems });
});
// Every line of this process, the Next.js code it runs included: service `web`, at LOG_LEVEL and above.
configureLog({ service: 'web', level: config.logLevel });
// Node's warnings (a deprecation, the AWS SDK's notice about this Node.js version) as lines of the same log.
logProcessWarnings();
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

/** One access line when the answer to `req` ends (or the connection closes first): no headers, no body, no query string. */
function logAccess(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const started = performance.now();
  const p = loggablePath(req.url ?? '/');
  let done = false;
  const write = () => {
    if (done) return;
    done = true;
    const fields = { method: req.method ?? 'GET', path: p, status: res.statusCode, durationMs: Math.round(performance.now() - started), ...(res.writableFinished ? {} : { aborted: true }) };
    // API requests (lib/api/edge-guard.ts isApiPath: /api, /auth, the EventBridge paths) and /metrics at
    // info; pages and static files at debug. In the request's context: the line carries its requestId.
    withRequestContext({ requestId }, () => log(isApiPath(p) || p === '/metrics' ? 'info' : 'debug', 'request', fields));
  };
  res.once('finish', write);
  res.once('close', write);
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

/**
 * The port cannot be bound (EADDRINUSE, EACCES, EADDRNOTAVAIL…): one JSON error line, exit 1, so
 * systemd `Restart=on-failure`, docker `--restart on-failure` and `npm start` see a failure (Next.js's
 * own uncaughtException handler would only print the error, and the process would end with 0).
 */
function cannotListen(e: NodeJS.ErrnoException): never {
  logger.error(`web server: cannot listen on ${config.hostname}:${config.port}`, { code: e.code ?? 'unknown', error: e.message });
  process.exit(1);
}

/** Bind `srv` on the configured host and port; resolves once it listens, exits 1 if it cannot. */
function listenOrExit(srv: TcpServer): Promise<void> {
  return new Promise((resolve) => {
    srv.once('error', cannotListen);
    srv.listen(config.port, config.hostname, () => {
      srv.off('error', cannotListen);
      resolve();
    });
  });
}

// Try the port before Next.js prepares (seconds): a taken or forbidden port fails in milliseconds.
const probe = createTcpServer();
await listenOrExit(probe);
await new Promise((resolve) => probe.close(resolve));

await app.prepare();
const server = createServer((req, res) => {
  const requestId = requestIdOf(req.headers['x-request-id']);
  // Next.js and the route handlers see the id the client is answered with (never an unchecked one).
  req.headers['x-request-id'] = requestId;
  res.setHeader('x-request-id', requestId);
  logAccess(req, res, requestId);
  // Everything done for this request (Next.js, route handlers, server actions) runs in its context.
  withRequestContext({ requestId }, () =>
    onRequest(req, res).catch((e: unknown) => {
      logger.error('web server: unhandled request error', { error: e instanceof Error ? e.message : String(e) });
      if (!res.headersSent) answer(res, 500, { error: { code: 'internal_error', message: 'internal error' } });
      else res.destroy();
    }),
  );
});
if (dev) {
  const upgrade = app.getUpgradeHandler();
  server.on('upgrade', (req, socket, head) => void upgrade(req, socket, head));
}
void listenOrExit(server).then(() => {
  logger.info(`web: listening on http://${config.hostname}:${config.port}`, { trustedProxies: config.http.trustedProxies.length ? config.http.trustedProxies : undefined });
});
for (const s of ['SIGINT', 'SIGTERM'] as const) {
  process.on(s, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
