/**
 * A TCP proxy on loopback in front of a real server (tests: the PostgreSQL connection a request runs
 * on, cut at a chosen moment). Bytes pass unchanged both ways until `cutWhenClientSends(text)` is
 * armed: the first client chunk holding `text` (on a connection that sent `after` before, when given)
 * is NOT forwarded, and that connection is destroyed on both sides, as a network cut or a server
 * restart would. With `deliver: true` the chunk IS forwarded (and the server's side half-closed after
 * it, so the server still reads it) before the client's side is destroyed: the server acts on it (a
 * COMMIT commits) and its answer is what is lost. `stop()` refuses new connections (and cuts the open
 * ones) until `start()` listens again on the same port.
 */
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface CuttingProxy {
  /** The loopback port clients connect to. */
  port: number;
  /** Cut the next connection whose client sends a chunk containing `text`; resolves once it is cut. */
  cutWhenClientSends(text: string, opts?: { after?: string; deliver?: boolean }): Promise<void>;
  /** Close the listener and every open connection: connecting is refused until `start()`. */
  stop(): Promise<void>;
  /** Listen again on `port`. */
  start(): Promise<void>;
}

/** A proxy from a free loopback port to `127.0.0.1:targetPort`. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  let armed: { text: string; after?: string; deliver: boolean; done: () => void } | null = null;
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
        open.add(client).add(upstream);
        /** The `after` texts this connection's client has sent. */
        const sent = new Set<string>();
        /** Set once a delivered chunk half-closed the server's side: it closes by itself after reading it. */
        let delivered = false;
        const cut = () => {
          client.destroy();
          if (!delivered) upstream.destroy();
        };
        client.on('data', (chunk: Buffer) => {
          if (armed?.after && chunk.includes(armed.after)) sent.add(armed.after);
          if (armed && chunk.includes(armed.text) && (!armed.after || sent.has(armed.after))) {
            const { done, deliver } = armed;
            armed = null;
            if (deliver) {
              delivered = true;
              upstream.end(chunk);
              client.destroy();
            } else cut();
            done();
            return;
          }
          upstream.write(chunk);
        });
        upstream.on('data', (chunk: Buffer) => client.write(chunk));
        for (const s of [client, upstream]) {
          s.on('error', cut);
          s.on('close', () => {
            open.delete(s);
            cut();
          });
        }
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    cutWhenClientSends: (text, opts = {}) => new Promise<void>((resolve) => (armed = { text, after: opts.after, deliver: opts.deliver ?? false, done: resolve })),
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      await closed;
    },
    start: async () => {
      await listen(port);
    },
  };
}
