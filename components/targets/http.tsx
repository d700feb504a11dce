/**
 * The `http` target in the web app (SPEC §13.1): its part of the schedule form (URL, method, header
 * rows, JSON body — blank: the default event — and timeout), its cells and the schedule page's Target
 * section, and its run results in words. Its form fields are http-fields.tsx; its words, the
 * contract's (lib/targets/http/contract.ts).
 */
import { HTTP_TARGET, HTTP_TIMEOUT_SECONDS, type HttpMethod, type HttpResult, type TargetOf } from '@/lib/schedules/contract';
import { Property } from '../property';
import { DEFAULT_EVENT_WORDS, clipped, externalView, type ExternalShown } from './external';
import { numberOf, parseJsonText } from './form-text';
import type { TargetForm, TargetView } from './types';

export interface HttpFormValues {
  url: string;
  method: HttpMethod;
  /** One row per header; rows with a blank name are left out. */
  headers: { name: string; value: string }[];
  /** JSON text of the body; blank: the default event (SPEC §13.3). */
  body: string;
  /** Blank: the default, 10 s. */
  timeout_seconds: string;
}

/** Each input's label, by the request path it fills. */
const HTTP_LABELS = {
  'invocation_target.url': 'URL',
  'invocation_target.method': 'Method',
  'invocation_target.headers': 'Headers',
  'invocation_target.body': 'Body (JSON)',
  'invocation_target.timeout_seconds': 'Timeout (seconds)',
} as const;

/** The whole-number fields and their inclusive bounds (SPEC §13.1 `timeout_seconds`). */
const HTTP_BOUNDS = { 'invocation_target.timeout_seconds': [HTTP_TIMEOUT_SECONDS.min, HTTP_TIMEOUT_SECONDS.max] } as const;

export const HTTP_FORM: TargetForm<'http', HttpFormValues, typeof HTTP_LABELS, typeof HTTP_BOUNDS> = {
  type: 'http',
  blank: { url: '', method: 'POST', headers: [], body: '', timeout_seconds: '' },
  labels: HTTP_LABELS,
  bounds: HTTP_BOUNDS,
  valuesOf: (t: TargetOf<'http'>) => ({
    url: t.url,
    method: t.method ?? 'POST',
    headers: Object.entries(t.headers ?? {}).map(([name, value]) => ({ name, value })),
    body: t.body === undefined ? '' : JSON.stringify(t.body, null, 2),
    timeout_seconds: t.timeout_seconds !== undefined ? String(t.timeout_seconds) : '',
  }),
  /** Header rows with a blank name are left out; a blank body or timeout is left out (the default event, 10 s). */
  body(v, problems) {
    const rows = v.headers.filter((h) => h.name.trim() !== '');
    const headers: Record<string, string> = {};
    for (const h of rows) {
      const name = h.name.trim();
      if (Object.hasOwn(headers, name)) problems['invocation_target.headers'] = `Header "${name}" is given twice.`;
      headers[name] = h.value;
    }
    let body: unknown;
    if (v.body.trim() !== '') {
      const parsed = parseJsonText(v.body);
      if ('problem' in parsed) problems['invocation_target.body'] = parsed.problem;
      else body = parsed.value;
    }
    return {
      url: v.url.trim(),
      method: v.method,
      headers: rows.length ? headers : undefined,
      body,
      timeout_seconds: v.timeout_seconds.trim() === '' ? undefined : numberOf(v.timeout_seconds),
    };
  },
};

export const HTTP_VIEW: TargetView<'http', ExternalShown<'http'>> = externalView(HTTP_TARGET, {
  Details: WebhookTargetDetails,
  resultWords(result) {
    if ('http_status' in result && !('error' in result)) {
      const r = result as Extract<HttpResult, { http_status: number; response_excerpt: string }>;
      const full = `HTTP ${r.http_status}${r.response_excerpt ? ` · ${r.response_excerpt}` : ''}`;
      return { ok: true, text: clipped(full), full };
    }
    if ('error' in result && 'http_status' in result && result.http_status !== undefined) {
      const r = result as Extract<HttpResult, { error: 'http_error' }>;
      const full = `HTTP ${r.http_status}${r.response_excerpt ? ` · ${r.response_excerpt}` : ''}`;
      return { ok: false, code: r.error, text: clipped(full), full };
    }
    return null;
  },
});

/** The schedule page's Target section of a webhook: the headline, every field as saved, and the body each fire sends. */
function WebhookTargetDetails({ target }: { target: TargetOf<'http'> }) {
  const headers = Object.entries(target.headers ?? {});
  const none = <span className="muted">None</span>;
  return (
    <>
      <p className="target-headline" data-testid="target-headline">
        {HTTP_TARGET.words.label(target)}
      </p>
      <dl className="properties properties-single">
        <Property term="Type">Webhook (http)</Property>
        <Property term="URL">
          <span className="mono break">{target.url}</span>
        </Property>
        <Property term="Method">{target.method ?? 'POST'}</Property>
        <Property term="Timeout">
          {target.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default} s{target.timeout_seconds === undefined ? <span className="muted small"> (default)</span> : null}
        </Property>
        <Property term="Headers">
          {headers.length ? (
            <ul className="plain-list mono small">
              {headers.map(([name, value]) => (
                <li key={name}>
                  {name}: {value}
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </Property>
      </dl>
      <p className="muted small">Each request is signed with the scheduler’s signing secret (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature). Success is a 2xx answer within the timeout; redirects are not followed.</p>
      <h3 className="subsection-title">Body</h3>
      {target.body === undefined ? <p className="muted">{DEFAULT_EVENT_WORDS}</p> : <pre className="code-block">{typeof target.body === 'string' ? target.body : JSON.stringify(target.body, null, 2)}</pre>}
    </>
  );
}
