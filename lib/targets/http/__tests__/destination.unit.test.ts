import { describe, expect, it } from 'vitest';
import { loadConfig, type HttpAllowList } from '../../../config';
import { addressVerdict, checkDestinationAtSave, classifyAddress, resolveDestination, type HostResolver } from '../destination';

const NONE: HttpAllowList = { hosts: [], addresses: [], ranges: [] };
/** A resolver answering from a table (no DNS traffic in unit tests). */
const table =
  (answers: Record<string, string[]>): HostResolver =>
  async (host) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('§13.1 refused address categories', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['fd12:3456::1', 'unique local (private)'],
    ['100.64.0.1', 'carrier-grade NAT (shared)'],
    // IPv6 forms that embed a refused IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible IPv6'],
    ['::a00:1', 'IPv4-compatible IPv6'],
    ['64:ff9b::a00:1', 'NAT64 (IPv4-embedding) IPv6'],
    ['2002:a00:1::', '6to4 (IPv4-embedding) IPv6'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toMatchObject({ kind: 'refused', category });
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(classifyAddress(address)).toEqual({ kind: 'public' });
  });
});

describe('§13.1 SCHEDULER_HTTP_ALLOWED_HOSTS', () => {
  const list = loadConfig({ SCHEDULER_HTTP_ALLOWED_HOSTS: ' localhost, receiver.internal. ,10.0.0.0/8,[::1], 192.168.7.7 ,fd00::/8 , 169.254.169.254' }).delivery.httpAllowList;

  it('parses host names, addresses and CIDR ranges', () => {
    expect(list).toEqual({ hosts: ['localhost', 'receiver.internal'], addresses: ['::1', '192.168.7.7', '169.254.169.254'], ranges: ['10.0.0.0/8', 'fd00::/8'] });
  });

  it('refuses an entry that is none of them, naming it', () => {
    expect(() => loadConfig({ SCHEDULER_HTTP_ALLOWED_HOSTS: 'localhost,http://x/' })).toThrow('SCHEDULER_HTTP_ALLOWED_HOSTS: "http://x/" is not a host name, an IP address or a CIDR range');
    expect(() => loadConfig({ SCHEDULER_HTTP_ALLOWED_HOSTS: '10.0.0.0/33' })).toThrow('"10.0.0.0/33" is not a host name');
  });

  it('allows a listed host whatever it resolves to, a listed address, and a listed range', () => {
    expect(addressVerdict('localhost', '127.0.0.1', list)).toEqual({ allowed: true });
    expect(addressVerdict('receiver.internal', '192.168.3.3', list)).toEqual({ allowed: true });
    expect(addressVerdict('10.9.9.9', '10.9.9.9', list)).toEqual({ allowed: true });
    expect(addressVerdict('::ffff:10.9.9.9', '::ffff:10.9.9.9', list)).toEqual({ allowed: true });
    expect(addressVerdict('[::1]', '::1', list)).toEqual({ allowed: true });
    expect(addressVerdict('192.168.7.7', '192.168.7.7', list)).toEqual({ allowed: true });
    expect(addressVerdict('x.example', 'fd01::5', list)).toEqual({ allowed: true });
  });

  it('keeps refusing what is not listed', () => {
    expect(addressVerdict('192.168.7.8', '192.168.7.8', list)).toEqual({
      allowed: false,
      reason: '192.168.7.8 is a private address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
    });
    expect(addressVerdict('other.example', '127.0.0.1', list)).toEqual({
      allowed: false,
      reason: '127.0.0.1 is a loopback address (other.example resolves to it); list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
    });
  });

  it('opens a cloud metadata address only by its exact listing, never by a host name or a range', () => {
    const broad: HttpAllowList = { hosts: ['metadata.google.internal'], addresses: [], ranges: ['169.254.0.0/16', 'fd00::/8'] };
    expect(addressVerdict('metadata.google.internal', '169.254.169.254', broad).allowed).toBe(false);
    expect(addressVerdict('169.254.169.254', '169.254.169.254', broad).allowed).toBe(false);
    expect(addressVerdict('[fd00:ec2::254]', 'fd00:ec2::254', broad).allowed).toBe(false);
    expect(addressVerdict('169.254.169.254', '169.254.169.254', list)).toEqual({ allowed: true });
  });
});

describe('§13.1 destinations after resolution', () => {
  const resolve = table({
    'public.example': ['93.184.216.34'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'v6.example': ['2606:4700:4700::1111'],
    'rebind.example': ['::ffff:169.254.169.254'],
  });

  it('answers the one address to connect to', async () => {
    expect(await resolveDestination(new URL('https://public.example/hook'), NONE, resolve)).toEqual({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
    expect(await resolveDestination(new URL('https://v6.example/'), NONE, resolve)).toEqual({ ok: true, addresses: [{ address: '2606:4700:4700::1111', family: 6 }] });
  });

  it('refuses a name with any refused address, and IP literals as written', async () => {
    expect(await resolveDestination(new URL('https://mixed.example/'), NONE, resolve)).toMatchObject({ ok: false, error: 'destination_refused', message: expect.stringContaining('10.0.0.7 is a private address (mixed.example resolves to it)') });
    expect(await resolveDestination(new URL('https://rebind.example/'), NONE, resolve)).toMatchObject({ ok: false, error: 'destination_refused', message: expect.stringContaining('169.254.169.254 is a cloud metadata address') });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::1]:8080/', 'http://0.0.0.0/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/', 'http://[fd00:ec2::254]/']) {
      expect(await resolveDestination(new URL(url), NONE, resolve), url).toMatchObject({ ok: false, error: 'destination_refused' });
    }
  });

  it('a name that does not resolve is connection_failed at fire and invalid_invocation_target at save', async () => {
    expect(await resolveDestination(new URL('https://nowhere.example/'), NONE, resolve)).toEqual({ ok: false, error: 'connection_failed', message: 'nowhere.example does not resolve (ENOTFOUND)' });
    await expect(checkDestinationAtSave('https://nowhere.example/', NONE, resolve)).rejects.toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.url' });
  });

  it('save refuses http://169.254.169.254/… and http://127.0.0.1:… unless allowed', async () => {
    await expect(checkDestinationAtSave('http://169.254.169.254/latest/meta-data/iam/', NONE)).rejects.toMatchObject({
      code: 'invalid_invocation_target',
      message: 'url: 169.254.169.254 is a cloud metadata address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
      path: 'invocation_target.url',
    });
    await expect(checkDestinationAtSave('http://127.0.0.1:3710/hook', NONE)).rejects.toMatchObject({ code: 'invalid_invocation_target' });
    await expect(checkDestinationAtSave('http://127.0.0.1:3710/hook', { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] })).resolves.toBeUndefined();
    await expect(checkDestinationAtSave('https://public.example/', NONE, resolve)).resolves.toBeUndefined();
  });
});
