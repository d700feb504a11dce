/**
 * `npm start`'s supervision (scripts/supervisor.ts) with real processes (supervise-fixture.ts runs a
 * Supervisor over two idle Node children): a killed worker is restarted after the back-off while the
 * web app keeps running, and each exit and restart is said; quick exits back off (doubling); SIGTERM
 * and SIGINT stop both children, also while a restart is pending, and exit 0; the web app's exit
 * stops the worker and ends the supervisor with the web app's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restartDelayMs } from '../supervisor';

const FIXTURE = path.join(import.meta.dirname, 'supervise-fixture.ts');
const started: ChildProcess[] = [];

/** The fixture running with back-off `initial/max/reset` ms; its output so far, and a wait for a line. */
function supervise(initialMs: number, maxMs: number, resetAfterMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, String(initialMs), String(maxMs), String(resetAfterMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  /** The first match of `re` in the output after position `from`, within 15 s. */
  const line = async (re: RegExp, from = 0): Promise<{ match: RegExpExecArray; end: number }> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const m = new RegExp(re.source, 'm').exec(out.slice(from));
      if (m) return { match: m, end: from + m.index + m[0].length };
      if (Date.now() > deadline) throw new Error(`no line ${re} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, exit, line, output: () => out };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('npm start supervision', () => {
  it('the delay doubles from 1 s in a crash loop, at most 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => restartDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });

  it('a killed worker is restarted with back-off while the web app keeps running; SIGTERM stops both and exits 0', async () => {
    const s = supervise(300, 1200, 60_000);
    const web = Number((await s.line(/^start: web app started \(pid (\d+)\)$/)).match[1]);
    let at = await s.line(/^start: worker started \(pid (\d+)\)$/);
    const first = Number(at.match[1]);

    process.kill(first, 'SIGKILL');
    at = await s.line(/^start: worker exited \(SIGKILL\) after \d+ (?:ms|s); the web app keeps running; restarting the worker in 300 ms \(restart 1\)$/, at.end);
    at = await s.line(/^start: worker restarted \(pid (\d+)\)$/, at.end);
    const second = Number(at.match[1]);
    expect(second).not.toBe(first);
    expect(alive(web)).toBe(true);

    // A quick second exit backs off: twice the delay.
    process.kill(second, 'SIGKILL');
    at = await s.line(/^start: worker exited \(SIGKILL\) after \d+ (?:ms|s); the web app keeps running; restarting the worker in 600 ms \(restart 2, backing off\)$/, at.end);
    at = await s.line(/^start: worker restarted \(pid (\d+)\)$/, at.end);
    const third = Number(at.match[1]);
    expect(alive(third)).toBe(true);

    s.child.kill('SIGTERM');
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect([alive(web), alive(third)]).toEqual([false, false]);
  });

  it('Ctrl-C (SIGINT) while a restart is pending stops the web app and starts no worker', async () => {
    const s = supervise(3000, 3000, 60_000);
    const web = Number((await s.line(/^start: web app started \(pid (\d+)\)$/)).match[1]);
    const at = await s.line(/^start: worker started \(pid (\d+)\)$/);
    process.kill(Number(at.match[1]), 'SIGKILL');
    await s.line(/restarting the worker in 3 s \(restart 1\)$/, at.end);
    s.child.kill('SIGINT');
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect(alive(web)).toBe(false);
    expect(s.output()).not.toMatch(/worker restarted/);
  });

  it('the web app\'s exit stops the worker and ends npm start with the web app\'s code', async () => {
    const s = supervise(300, 1200, 60_000);
    const web = Number((await s.line(/^start: web app started \(pid (\d+)\)$/)).match[1]);
    const worker = Number((await s.line(/^start: worker started \(pid (\d+)\)$/)).match[1]);
    process.kill(web, 'SIGKILL');
    await s.line(/^start: web app exited \(SIGKILL\); stopping the rest$/);
    expect(await s.exit).toEqual({ code: 1, signal: null });
    expect(alive(worker)).toBe(false);
  });
});
