/**
 * SPEC §14: access key secrets are never stored in plain text. They are sealed with the server key
 * (AES-256-GCM, the access key id as additional data); the key comes from SCHEDULER_SECRET_KEY or a
 * key file generated once with mode 0600.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, resetServerSecretKey, serverSecretKey } from '../../../config';
import { openSecret, sealSecret } from '../secret-box';

const KEY = randomBytes(32);

afterEach(() => {
  resetServerSecretKey();
});

describe('sealed access key secrets', () => {
  it('open what was sealed; the sealed form does not contain the secret', () => {
    const sealed = sealSecret('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', 'AKIAEXAMPLE', KEY);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('wJalrXUtnFEMI');
    expect(openSecret(sealed, 'AKIAEXAMPLE', KEY)).toBe('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
    // A fresh IV each time: the same secret seals differently.
    expect(sealSecret('same', 'AKIAEXAMPLE', KEY)).not.toBe(sealSecret('same', 'AKIAEXAMPLE', KEY));
  });

  it('refuses another row, another server key, and an altered value', () => {
    const sealed = sealSecret('secret-value', 'AKIAONE', KEY);
    expect(() => openSecret(sealed, 'AKIATWO', KEY)).toThrow();
    expect(() => openSecret(sealed, 'AKIAONE', randomBytes(32))).toThrow(/sealed with another server key/);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => openSecret(parts.join('.'), 'AKIAONE', KEY)).toThrow();
  });

  it('without SCHEDULER_SECRET_KEY the key is generated once into the key file, mode 0600, and reused', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-key-'));
    const file = path.join(dir, 'nested', 'scheduler-secret.key');
    const config = loadConfig({ SCHEDULER_SECRET_KEY_FILE: file });
    const first = serverSecretKey(config);
    expect(first.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    resetServerSecretKey();
    expect(serverSecretKey(config)).toEqual(first);
  });

  it('SCHEDULER_SECRET_KEY wins (hex or base64); a malformed one is a configuration error', () => {
    expect(serverSecretKey(loadConfig({ SCHEDULER_SECRET_KEY: KEY.toString('hex') }))).toEqual(KEY);
    resetServerSecretKey();
    expect(serverSecretKey(loadConfig({ SCHEDULER_SECRET_KEY: KEY.toString('base64') }))).toEqual(KEY);
    resetServerSecretKey();
    expect(() => serverSecretKey(loadConfig({ SCHEDULER_SECRET_KEY: 'too-short' }))).toThrow(/SCHEDULER_SECRET_KEY/);
  });
});
