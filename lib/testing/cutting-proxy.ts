/**
 * A TCP proxy on loopback in front of a real server (tests: the PostgreSQL connection a request runs
 * on, cut at a chosen moment). Bytes pass unchanged both ways until `cutWhenClientSends(text)` is
 * armed: the first client chunk holding `text` is NOT forwarded, and that connection is destroyed on
 * both sides, as a network cut or a server restart would. `stop()` refuses new connections (and cuts
 * the open ones) until `start()` listens again on the same port.
 */
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface CuttingProxy {
  /** The loopback port clients connect to. */
  port: number;
  /** Cut the next connection whose client sends a chunk containing `text`; resolves once it is cut. */
  cutWhenClientSends(text: string): Promise<void>;
  /** Close the listener and every open connection: connecting is refused until `start()`. */
  stop(): Promise<void>;
  /** Listen again on `port`. */
  start(): Promise<void>;
}

/** A proxy from a free loopback port to `127.0.0.1:targetPort`. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  let armed: { text: string; done: () => void } | null = null;
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
        open.add(client).add(upstream);
        const cut = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('data', (chunk: Buffer) => {
          if (armed && chunk.includes(armed.text)) {
            const { done } = armed;
            armed = null;
            cut();
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
    cutWhenClientSends: (text) => new Promise<void>((resolve) => (armed = { text, done: resolve })),
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
