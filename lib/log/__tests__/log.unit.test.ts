/**
 * The log line format (docs/ops.md "Logs"): `{time, level, msg, service, requestId?, ...context}` on
 * one line, the configured level filtering, the request context across awaits, and which incoming
 * `X-Request-Id` values are kept.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv } from '../../config';
import { configureLog, currentRequestId, formatLogLine, log, logger, logProcessWarnings, requestIdOf, withRequestContext } from '..';

const lines: string[] = [];
const capture = (level: 'debug' | 'info' | 'warn' | 'error', service: 'web' | 'worker' = 'web') => {
  lines.length = 0;
  configureLog({ service, level, write: (l) => lines.push(l) });
};
afterEach(() => configureLog({ service: 'web', level: 'info', write: (l) => void process.stdout.write(`${l}\n`) }));

describe('formatLogLine', () => {
  it('writes the fixed fields first, in UTC, then the context in its order', () => {
    const text = formatLogLine({ time: new Date('2030-05-01T12:00:00.123+02:00'), level: 'warn', msg: 'occurrence fired', service: 'worker', fields: { scheduleId: 's1', lateMs: 12 } });
    expect(text).toBe('{"time":"2030-05-01T10:00:00.123Z","level":"warn","msg":"occurrence fired","service":"worker","scheduleId":"s1","lateMs":12}');
    expect(text).not.toContain('\n');
  });

  it('adds requestId after service; an Error is its message; undefined fields are left out; a field named like a fixed one is ctx_<name>', () => {
    const text = formatLogLine({
      time: new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)),
      level: 'error',
      msg: 'boom',
      service: 'web',
      requestId: 'req-1',
      fields: { error: new Error('disk full'), skipped: undefined, level: 'spoofed', msg: 'x\ny' },
    });
    expect(JSON.parse(text)).toEqual({ time: '2030-01-02T03:04:05.006Z', level: 'error', msg: 'boom', service: 'web', requestId: 'req-1', error: 'disk full', ctx_level: 'spoofed', ctx_msg: 'x\ny' });
    expect(Object.keys(JSON.parse(text)).slice(0, 5)).toEqual(['time', 'level', 'msg', 'service', 'requestId']);
    // A newline in a value is escaped: one event stays one line.
    expect(text.split('\n')).toHaveLength(1);
  });
});

describe('log', () => {
  it('writes at and above the configured level only, with the configured service', () => {
    capture('warn', 'worker');
    logger.debug('d');
    logger.info('i');
    logger.warn('w', { n: 1 });
    log('error', 'e');
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>).map((l) => [l.level, l.msg, l.service])).toEqual([
      ['warn', 'w', 'worker'],
      ['error', 'e', 'worker'],
    ]);
    expect(JSON.parse(lines[0]).n).toBe(1);
    expect(Date.parse(JSON.parse(lines[0]).time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('carries the request id of the context it runs in, across awaits and timers; none outside', async () => {
    capture('debug');
    logger.info('outside');
    await withRequestContext({ requestId: 'abc.DEF_1-2' }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      logger.error('unhandled API error', { error: 'x' });
      expect(currentRequestId()).toBe('abc.DEF_1-2');
    });
    await Promise.all([
      withRequestContext({ requestId: 'a' }, async () => {
        await new Promise((r) => setTimeout(r, 10));
        logger.info('first');
      }),
      withRequestContext({ requestId: 'b' }, async () => logger.info('second')),
    ]);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((l) => [l.msg, l.requestId])).toEqual([
      ['outside', undefined],
      ['unhandled API error', 'abc.DEF_1-2'],
      ['second', 'b'],
      ['first', 'a'],
    ]);
    expect(currentRequestId()).toBeUndefined();
  });
});

describe('requestIdOf', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it('keeps a sane incoming id (1–128 of A-Za-z0-9._-)', () => {
    expect(requestIdOf('abc.DEF_1-2')).toBe('abc.DEF_1-2');
    expect(requestIdOf('x')).toBe('x');
    expect(requestIdOf('a'.repeat(128))).toBe('a'.repeat(128));
  });
  it('replaces a missing, empty, too long, repeated or unsafe one with a new UUID', () => {
    for (const bad of [undefined, '', 'a'.repeat(129), 'has space', 'line\nbreak', '{"json":1}', 'ünïcode', ['a', 'b'], []]) {
      expect(requestIdOf(bad), JSON.stringify(bad)).toMatch(UUID);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});

describe('logProcessWarnings', () => {
  it("writes a process warning as one warn line in place of Node's printer, once however often it is called", async () => {
    const before = process.listeners('warning');
    expect(before.map((l) => l.name)).toContain('onWarning');
    capture('info', 'worker');
    try {
      logProcessWarnings();
      logProcessWarnings();
      const added = process.listeners('warning').filter((l) => !before.includes(l));
      expect(added).toHaveLength(1);
      expect(process.listeners('warning').map((l) => l.name)).not.toContain('onWarning');
      // Emitted on the next tick, as Node does for every warning.
      process.emitWarning('NodeVersionSupportWarning: the SDK will require node >=22.\n\nMore information: https://a.co/x', { type: 'Warning', code: 'SDK_NODE' });
      await new Promise((r) => setImmediate(r));
      expect(lines).toHaveLength(1);
      expect(lines[0].split('\n')).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({
        level: 'warn',
        msg: 'process warning',
        service: 'worker',
        warning: 'Warning',
        code: 'SDK_NODE',
        detail: 'NodeVersionSupportWarning: the SDK will require node >=22.\n\nMore information: https://a.co/x',
      });
      // Below the configured level it is not written.
      capture('error', 'worker');
      process.emitWarning('quiet', 'DeprecationWarning', 'DEP0001');
      await new Promise((r) => setImmediate(r));
      expect(lines).toHaveLength(0);
    } finally {
      for (const l of process.listeners('warning')) if (!before.includes(l)) process.off('warning', l);
      for (const l of before) if (!process.listeners('warning').includes(l)) process.on('warning', l);
    }
  });
});

describe('logProcessWarnings in a process started with warnings off', () => {
  const script = (flags: string[], env: Record<string, string> = {}) =>
    spawnSync(
      process.execPath,
      [...flags, '--import', 'tsx', '--input-type=module', '-e', `
        import { configureLog, logProcessWarnings } from ${JSON.stringify(path.resolve(import.meta.dirname, '..', 'index.ts'))};
        configureLog({ service: 'worker', level: 'info' });
        logProcessWarnings();
        process.emitWarning('NodeVersionSupportWarning: upgrade');
      `],
      { encoding: 'utf8', env: childEnv({ NODE_NO_WARNINGS: '', ...env }) },
    );

  it('writes the warning as its one line by default, and nothing under --no-warnings or NODE_NO_WARNINGS=1', () => {
    const on = script([]);
    expect(on.status).toBe(0);
    expect(on.stderr).toBe('');
    expect(on.stdout.trim().split('\n').map((l) => JSON.parse(l))).toMatchObject([{ level: 'warn', msg: 'process warning', warning: 'Warning', detail: 'NodeVersionSupportWarning: upgrade' }]);
    for (const off of [script(['--no-warnings']), script([], { NODE_NO_WARNINGS: '1' })]) {
      expect(off.status).toBe(0);
      expect(off.stdout).toBe('');
      expect(off.stderr).toBe('');
    }
  });
});

