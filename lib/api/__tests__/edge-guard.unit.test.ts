/**
 * The request guard in front of Next.js (lib/api/edge-guard.ts): forwarded headers are believed only
 * from SCHEDULER_TRUSTED_PROXIES; server actions from another origin, over 1 MiB or without a length
 * are refused with 403 / 413 / 411; API bodies over 1 MiB with 413 request_too_large.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { guardRequest, loggablePath, proxyMatcher, type EdgeRequest } from '../edge-guard';

const none = proxyMatcher([]);
const loopbackProxy = proxyMatcher(loadConfig({ SCHEDULER_TRUSTED_PROXIES: 'loopback, 10.1.0.0/16' }).http.trustedProxies);

function req(over: Partial<EdgeRequest> & { headers?: EdgeRequest['headers'] } = {}): EdgeRequest {
  return { method: 'GET', url: '/schedulers', remoteAddress: '127.0.0.1', ...over, headers: { host: 'sched.example:3000', ...over.headers } };
}

describe('forwarded headers', () => {
  it('without trusted proxies X-Forwarded-For, -Host and -Proto change nothing: the socket and Host decide', () => {
    const r = req({ remoteAddress: '::ffff:192.0.2.7', headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'for=1.2.3.4', 'x-real-ip': '1.2.3.4', 'x-scheduler-client-address': '9.9.9.9' } });
    const { forwarding } = guardRequest(r, none);
    expect(forwarding).toEqual({ clientAddress: '192.0.2.7', host: 'sched.example:3000', proto: 'http' });
    expect(r.headers).toEqual({ host: 'sched.example:3000', 'x-forwarded-for': '192.0.2.7', 'x-forwarded-host': 'sched.example:3000', 'x-forwarded-proto': 'http', 'x-scheduler-client-address': '192.0.2.7' });
  });

  it('from a trusted proxy the nearest untrusted X-Forwarded-For hop is the client, and its host and scheme are believed', () => {
    const r = req({ remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.4, 10.1.2.3', 'x-forwarded-host': 'sched.example.com', 'x-forwarded-proto': 'https' } });
    expect(guardRequest(r, loopbackProxy).forwarding).toEqual({ clientAddress: '198.51.100.4', host: 'sched.example.com', proto: 'https' });
    expect(r.headers['x-forwarded-for']).toBe('198.51.100.4');
    // A client that is not a proxy cannot make itself one by sending the header.
    expect(guardRequest(req({ remoteAddress: '192.0.2.7', headers: { 'x-forwarded-for': '127.0.0.1' } }), loopbackProxy).forwarding.clientAddress).toBe('192.0.2.7');
  });

  it('SCHEDULER_TRUSTED_PROXIES refuses what is not an address or a CIDR block', () => {
    expect(() => loadConfig({ SCHEDULER_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/SCHEDULER_TRUSTED_PROXIES: "10.0.0.0\/33" is not an IP address/);
    expect(() => loadConfig({ SCHEDULER_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/is not an IP address/);
    expect(loadConfig({}).http.trustedProxies).toEqual([]);
    expect(loadConfig({ SCHEDULER_TRUSTED_PROXIES: '::1,10.0.0.5' }).http.trustedProxies).toEqual(['::1/128', '10.0.0.5/32']);
  });
});

describe('server actions and bodies', () => {
  const action = (headers: EdgeRequest['headers']) => guardRequest(req({ method: 'POST', url: '/orgs/acme-corp/admin', headers: { 'next-action': 'abc', ...headers } }), none).refusal;

  it('a server action from another origin or Origin: null is 403; same origin or no Origin passes', () => {
    expect(action({ origin: 'http://evil.example', 'content-length': '10' })).toEqual({ status: 403, body: { error: { code: 'forbidden', message: 'cross-site form posts are refused' } } });
    expect(action({ origin: 'null', 'content-length': '10' })?.status).toBe(403);
    // A forged X-Forwarded-Host no longer makes a foreign origin look like the host.
    expect(action({ origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'content-length': '10' })?.status).toBe(403);
    expect(action({ origin: 'http://sched.example:3000', 'content-length': '10' })).toBeUndefined();
    expect(action({ 'content-length': '10' })).toBeUndefined();
  });

  it('a server action over 1 MiB is 413, without Content-Length 411; an API body over 1 MiB is 413', () => {
    expect(action({ 'content-length': String(1024 * 1024 + 1) })).toEqual({ status: 413, body: { error: { code: 'request_too_large', message: 'a form post may carry at most 1048576 bytes' } } });
    expect(action({ 'content-length': String(1024 * 1024) })).toBeUndefined();
    expect(action({ 'transfer-encoding': 'chunked' })?.status).toBe(411);
    const api = guardRequest(req({ method: 'POST', url: '/api/v1/revisions/x/data', headers: { 'content-length': String(2 * 1024 * 1024) } }), none).refusal;
    expect(api).toEqual({ status: 413, body: { error: { code: 'request_too_large', message: 'the request body may be at most 1048576 bytes' } } });
    // API posts are not server actions: no Origin rule, a chunked body is capped while read (body.ts).
    expect(guardRequest(req({ method: 'POST', url: '/api/v1/x', headers: { origin: 'http://evil.example' } }), none).refusal).toBeUndefined();
  });
});

describe('loggablePath (the access line)', () => {
  it('drops the query string and fragment, keeps the path', () => {
    expect(loggablePath('/api/health/live?token=abc&x=1')).toBe('/api/health/live');
    expect(loggablePath('/api/v1/orgs/acme-corp/blobs/ops#frag')).toBe('/api/v1/orgs/acme-corp/blobs/ops');
    expect(loggablePath('/metrics')).toBe('/metrics');
    expect(loggablePath('/schedules/nightly?groupName=default')).toBe('/schedules/nightly');
  });
  it('masks a token that is a path segment: a check-in token, an invitation token', () => {
    expect(loggablePath('/api/v1/checkins/eyJ0b2tlbiI6MX0.sig/fail?x=1')).toBe('/api/v1/checkins/••••/fail');
    expect(loggablePath('/api/v1/checkins/tok-123')).toBe('/api/v1/checkins/••••');
    expect(loggablePath('/invite/inv_abcdef')).toBe('/invite/••••');
    expect(loggablePath('/api/v1/checkins')).toBe('/api/v1/checkins');
  });
  it('masks the token however the path is spelled: doubled slashes, a different case, percent-encoding', () => {
    expect(loggablePath('/api/v1/checkins//TOKSECRET123/fail')).toBe('/api/v1/checkins/••••/fail');
    expect(loggablePath('/api/v1//checkins/TOKSECRET123')).toBe('/api/v1/checkins/••••');
    expect(loggablePath('//api/v1/checkins/TOKSECRET123')).toBe('/api/v1/checkins/••••');
    expect(loggablePath('//invite/INVSECRET')).toBe('/invite/••••');
    expect(loggablePath('/invite///INVSECRET/')).toBe('/invite/••••/');
    expect(loggablePath('/API/V1/CheckIns/TOKSECRET123')).toBe('/API/V1/CheckIns/••••');
    expect(loggablePath('/api/v1/checkins%2FTOKSECRET123')).toBe('/api/v1/checkins/••••');
    expect(loggablePath('/api/v1/%63heckins/TOKSECRET123')).toBe('/api/v1/checkins/••••');
    expect(loggablePath('/api/v1/checkins%2f%2fTOKSECRET123%2Ffail')).toBe('/api/v1/checkins/••••/fail');
    // Not decodable (a lone %): still split and masked on the raw path.
    expect(loggablePath('/api/v1/checkins/TOK%zz')).toBe('/api/v1/checkins/••••');
    // `;` parameters on the segment, and a token spelled after `..` (the router may resolve it).
    expect(loggablePath('/api/v1/checkins;x/TOKSECRET123')).toBe('/api/v1/checkins;x/••••');
    expect(loggablePath('/invite;x/INVSECRET')).toBe('/invite;x/••••');
    expect(loggablePath('/api/v1/checkins/x%2F..%2FTOKSECRET123')).toBe('/api/v1/checkins/••••/••••/••••');
    expect(loggablePath('/api/v1/checkins/TOKSECRET123/start')).toBe('/api/v1/checkins/••••/start');
    expect(loggablePath('/api/v1/checkins/TOKSECRET123/255')).toBe('/api/v1/checkins/••••/255');
    expect(loggablePath('/api/v1/checkins/fail')).toBe('/api/v1/checkins/••••');
    for (const p of ['/api/v1/checkins//TOKSECRET123', '//invite/INVSECRET', '/api/v1/checkins%2FTOKSECRET123', '/api/v1/checkins;x/TOKSECRET123', '/api/v1/checkins/x%2F..%2FTOKSECRET123', '/api/v1/checkins/a/b/TOKSECRET123/fail']) {
      expect(loggablePath(p)).not.toMatch(/SECRET/);
    }
  });
});
