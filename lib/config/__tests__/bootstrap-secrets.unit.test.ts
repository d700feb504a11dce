/**
 * SCHEDULER_BOOTSTRAP_API_KEY, SCHEDULER_DEMO_PASSWORD and SCHEDULER_METRICS_TOKEN (README
 * "Configuration"): a bearer key anyone could guess, or a password the account page itself would
 * refuse, is refused at load with one clear problem naming the variable, never the value.
 */
import { expect, it } from 'vitest';
import { loadConfig, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '..';

it('takes a bootstrap API key of 16 characters or more, and none', () => {
  expect(loadConfig({ SCHEDULER_BOOTSTRAP_API_KEY: 'k'.repeat(16) }).bootstrapApiKey).toBe('k'.repeat(16));
  expect(loadConfig({ SCHEDULER_BOOTSTRAP_API_KEY: 'sk_0123456789ab_~!@#$%^&*()' }).bootstrapApiKey).toBe('sk_0123456789ab_~!@#$%^&*()');
  expect(loadConfig({ SCHEDULER_BOOTSTRAP_API_KEY: '' }).bootstrapApiKey).toBeUndefined();
  expect(loadConfig({}).bootstrapApiKey).toBeUndefined();
});

it('refuses a bootstrap API key shorter than 16 characters, with spaces or outside ASCII (a header cannot carry it as set), without echoing it', () => {
  for (const key of ['abc', 'k'.repeat(15), ' '.repeat(16), ' padded-key-0123456789 ', 'clé-secrète-0123456789']) {
    let message = '';
    try {
      loadConfig({ SCHEDULER_BOOTSTRAP_API_KEY: key });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('SCHEDULER_BOOTSTRAP_API_KEY: must be at least 16 characters of printable ASCII, without spaces');
    if (key.trim()) expect(message).not.toContain(key);
  }
});

it('holds the demo password to the account page’s rule (10–256 characters)', () => {
  expect(MIN_PASSWORD_LENGTH).toBe(10);
  expect(loadConfig({ SCHEDULER_DEMO_PASSWORD: 'p'.repeat(MIN_PASSWORD_LENGTH) }).demoPassword).toBe('p'.repeat(10));
  expect(loadConfig({ SCHEDULER_DEMO_PASSWORD: 'p'.repeat(MAX_PASSWORD_LENGTH) }).demoPassword).toHaveLength(256);
  expect(() => loadConfig({ SCHEDULER_DEMO_PASSWORD: 'short' })).toThrow('SCHEDULER_DEMO_PASSWORD: must be 10–256 characters');
  expect(() => loadConfig({ SCHEDULER_DEMO_PASSWORD: 'p'.repeat(257) })).toThrow('SCHEDULER_DEMO_PASSWORD: must be 10–256 characters');
});

it('still refuses a metrics token shorter than 16 characters', () => {
  expect(() => loadConfig({ SCHEDULER_METRICS_TOKEN: 'tok' })).toThrow('SCHEDULER_METRICS_TOKEN: must be at least 16 characters');
  expect(loadConfig({ SCHEDULER_METRICS_TOKEN: 't'.repeat(16) }).http.metricsToken).toBe('t'.repeat(16));
});
