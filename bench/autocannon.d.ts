// The part of autocannon's programmatic API (https://github.com/mcollina/autocannon#api) that
// bench/api.ts uses: the package ships no types.
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request is sent: answers the request to send (e.g. with another `path`). */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    timeout?: number;
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  }
  /** A running load: a promise of its result that also emits each answer and can be stopped early. */
  export interface Instance extends Promise<Result> {
    /** Each answer: the connection's client object (one per connection), the status, the body's bytes, its latency (ms). */
    on(event: 'response', listener: (client: object, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
    stop(): void;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
