/**
 * Tests' "the worker's clock reads `at` now": fire everything due at `at` (up to 20 batches), wait
 * for the deliveries that fire started (unless `wait` is false: a test that looks at them in flight),
 * then run the worker's delivery step at `at` (retries due, outcome deadlines, alert sends; SPEC §8,
 * §16, §17). `clock` is the object the worker's `clock` option reads, moved to `at` first.
 */
export interface TickableWorker {
  tick(at: Date): Promise<number>;
  deliveries: { drain(): Promise<unknown> };
  deliveryStep(at: Date): Promise<unknown>;
}

export async function tickWorkerAt(worker: TickableWorker, clock: { at: Date }, at: Date, wait = true): Promise<void> {
  clock.at = at;
  for (let i = 0; i < 20 && (await worker.tick(at)) > 0; i++);
  if (wait) await worker.deliveries.drain();
  await worker.deliveryStep(at);
}
