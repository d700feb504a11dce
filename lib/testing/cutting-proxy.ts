/**
 * A TCP proxy on loopback in front of a real server (tests: the PostgreSQL connection a request runs
 * on, cut at a chosen moment). Bytes pass unchanged both ways until `cutWhenClientSends(text)` is
 * armed: the first client chunk holding `text` (on a connection that sent `after` before, when given)
 * is NOT forwarded, and that connection is destroyed on both sides, as a network cut or a server
 * restart would. With `deliver: true` the chunk IS forwarded (and the server's side half-closed after
 * it, so the server still reads it) before the client's side is destroyed: the server acts on it (a
 * COMMIT commits) and its answer is what is lost. `stop()` refuses new connections (and cuts the open
 * ones) until `start()` listens again on the same port.
 *
 * `partition()` is the silent kind of cut, which no error reveals: every open connection's server side
 * is closed (PostgreSQL ends the session and rolls its transaction back) while its client side stays
 * open and hears nothing more, not even a close, as when the server fails over to another address or a
 * firewall or NAT in between forgets the connection; a connection opened while partitioned is
 * accepted and hears nothing either. `heal()` lets new connections through again; the silenced ones
 * stay silent for good. Only timeouts can free a client from them.
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
  /** Silence every open connection and every new one (see the header) until `heal()`. */
  partition(): void;
  /** New connections reach the server again; those silenced stay silent. */
  heal(): void;
}

/** A proxy from a free loopback port to `127.0.0.1:targetPort`. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  /** Silences each open connection (`partition()`). */
  const silencers = new Set<() => void>();
  let partitioned = false;
  let armed: { text: string; after?: string; deliver: boolean; done: () => void } | null = null;
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        open.add(client);
        /** Set by `partition()`: the client's bytes go nowhere and it hears nothing more. */
        let silent = partitioned;
        /** The server's side; never opened for a connection accepted while partitioned. */
        let upstream: Socket | null = null;
        /** The `after` texts this connection's client has sent. */
        const sent = new Set<string>();
        /** Set once a delivered chunk half-closed the server's side: it closes by itself after reading it. */
        let delivered = false;
        const cut = () => {
          client.destroy();
          if (!delivered) upstream?.destroy();
        };
        const silence = () => {
          silent = true;
          upstream?.destroy();
        };
        silencers.add(silence);
        client.on('data', (chunk: Buffer) => {
          if (silent || !upstream) return;
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
        client.on('error', cut);
        client.on('close', () => {
          open.delete(client);
          silencers.delete(silence);
          cut();
        });
        if (silent) return;
        const up = createConnection({ host: '127.0.0.1', port: targetPort });
        upstream = up;
        open.add(up);
        up.on('data', (chunk: Buffer) => {
          if (!silent) client.write(chunk);
        });
        // A silenced connection's server side closes without the client hearing of it.
        up.on('error', () => (silent ? undefined : cut()));
        up.on('close', () => {
          open.delete(up);
          if (!silent) cut();
        });
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
    partition: () => {
      partitioned = true;
      for (const silence of silencers) silence();
    },
    heal: () => {
      partitioned = false;
    },
  };
}
