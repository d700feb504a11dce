/**
 * PORT (README "Configuration"): a TCP port, 1–65535, in decimal digits. Anything else is refused with
 * one clear problem at load, before a server tries to listen on it (where Node would throw a stack).
 */
import { expect, it } from 'vitest';
import { loadConfig } from '..';

it('takes a decimal port from 1 to 65535 and defaults to 3000', () => {
  expect(loadConfig({ PORT: '5760' }).port).toBe(5760);
  expect(loadConfig({ PORT: ' 65535 ' }).port).toBe(65535);
  expect(loadConfig({}).port).toBe(3000);
});

it('refuses a port out of range or not written in decimal digits', () => {
  expect(() => loadConfig({ PORT: '99999' })).toThrow('PORT: must be an integer from 1 to 65535, got "99999"');
  expect(() => loadConfig({ PORT: '0' })).toThrow('PORT: must be an integer from 1 to 65535, got "0"');
  expect(() => loadConfig({ PORT: '0x1680' })).toThrow('PORT: must be an integer from 1 to 65535, got "0x1680"');
  expect(() => loadConfig({ PORT: '5e3' })).toThrow('PORT: must be an integer from 1 to 65535, got "5e3"');
});
