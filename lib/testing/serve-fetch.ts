/**
 * TEST-ONLY: serve a Fetch-style handler (`(Request) => Promise<Response>`) over real HTTP on a free
 * loopback port, so integration tests drive a route handler with real clients (the AWS SDK, boto3).
 * The request's path and query reach the handler exactly as sent (percent-encoding kept).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FetchServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close: () => Promise<void>;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function serveFetch(handler: (req: Request) => Promise<Response>): Promise<FetchServer> {
  const server = createServer(async (req, res) => {
    try {
      const body = await readAll(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      const address = server.address() as AddressInfo;
      const request = new Request(`http://127.0.0.1:${address.port}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
