/**
 * The benches' handling of a production web app they started (`scripts/start.ts --web-only` or
 * scripts/web-server.ts, spawned `detached` so its whole process group can be stopped).
 */
import type { ChildProcess } from 'node:child_process';

/** Stop the web app's process group (SIGTERM) and wait for it to exit. */
export async function stopWeb(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/**
 * Wait until `baseUrl`/login answers 200 (web only, no worker: /api/health would answer 503
 * `degraded`, so readiness is the login page), up to 15 min (a first run builds the app).
 * @throws with the app's last output when it exits or is not ready in time.
 */
export async function waitForWeb(child: ChildProcess, baseUrl: string): Promise<void> {
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 15 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`web app exited (${child.exitCode}):\n${log.slice(-3000)}`);
    try {
      if ((await fetch(`${baseUrl}/login`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`web app not ready within 15 min:\n${log.slice(-3000)}`);
}
