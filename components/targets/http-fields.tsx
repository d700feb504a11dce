'use client';
/**
 * The `http` target's form fields (SPEC §13.1): URL, method, timeout, header rows, JSON body. Every
 * input fills the request path it is named by (`invocation_target.url`), so the contract's issues and
 * the server's refusals land at it; the bounds and choices are the contract's.
 */
import { useFieldArray } from 'react-hook-form';
import { HTTP_HEADERS_MAX, HTTP_METHODS, HTTP_TIMEOUT_SECONDS } from '@/lib/schedules/contract';
import { ContextAttributeTools } from '../schedule-form/context-attributes';
import { NumberField, TextAreaField, TextField } from '../schedule-form/field-kit';
import { LABELS } from '../schedule-form/values';
import type { TargetFieldsProps } from './types';

/** What a blank body or input means (SPEC §13.3). */
export const DEFAULT_EVENT_HINT = 'Blank: each fire sends the default event, an EventBridge Scheduler event naming this schedule, with an id stable for the occurrence.';

/** Webhook: URL, method, header rows, JSON body (blank: the default event) and timeout. */
export function WebhookFields({ kit }: TargetFieldsProps) {
  const headers = useFieldArray({ control: kit.control, name: 'invocation_target.headers' });
  const headersName = 'invocation_target.headers' as const;
  return (
    <>
      <div className="field-grid">
        <TextField
          kit={kit}
          name="invocation_target.url"
          wide
          placeholder="https://hooks.example.com/scheduler"
          hint={<>An http:// or https:// URL. Loopback, private, link-local and cloud metadata addresses are refused unless the operator allows them (SCHEDULER_HTTP_ALLOWED_HOSTS).</>}
        />
        <div className="field">
          <label htmlFor={kit.id('invocation_target.method')}>{LABELS['invocation_target.method']}</label>
          <select {...kit.register('invocation_target.method')} {...kit.a11y('invocation_target.method')}>
            {HTTP_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          {kit.fieldError('invocation_target.method')}
        </div>
        <NumberField
          kit={kit}
          name="invocation_target.timeout_seconds"
          optional
          placeholder={String(HTTP_TIMEOUT_SECONDS.default)}
          hint={<>{`${HTTP_TIMEOUT_SECONDS.min}–${HTTP_TIMEOUT_SECONDS.max} s; blank: ${HTTP_TIMEOUT_SECONDS.default} s. Success is a 2xx answer within it.`}</>}
        />
      </div>

      <fieldset className="subfieldset" aria-describedby={`${kit.id(headersName)}-hint`}>
        <legend>
          {LABELS[headersName]} <span className="optional">optional</span>
        </legend>
        {kit.hint(headersName, <>Sent with every request. The signature headers (webhook-id, webhook-timestamp, webhook-signature) and connection headers are the delivery’s own.</>)}
        {headers.fields.map((row, i) => (
          <div key={row.id} className="field-grid field-grid-3 header-row" data-header-row={i}>
            <div className="field">
              <label htmlFor={kit.id(`invocation_target.headers.${i}.name`)}>Header name</label>
              <input id={kit.id(`invocation_target.headers.${i}.name`)} {...kit.register(`invocation_target.headers.${i}.name`)} className="mono" autoComplete="off" spellCheck={false} placeholder="Authorization" />
            </div>
            <div className="field">
              <label htmlFor={kit.id(`invocation_target.headers.${i}.value`)}>Value</label>
              <input id={kit.id(`invocation_target.headers.${i}.value`)} {...kit.register(`invocation_target.headers.${i}.value`)} className="mono" autoComplete="off" spellCheck={false} />
            </div>
            <div className="field field-action">
              <button type="button" className="btn btn-link" onClick={() => headers.remove(i)} aria-label={`Remove header ${i + 1}`}>
                Remove
              </button>
            </div>
          </div>
        ))}
        <button type="button" className="btn btn-secondary" onClick={() => headers.append({ name: '', value: '' })} disabled={headers.fields.length >= HTTP_HEADERS_MAX}>
          Add header
        </button>
        {kit.fieldError(headersName)}
      </fieldset>

      <TextAreaField kit={kit} name="invocation_target.body" placeholder='{"report": "daily"}' hint={<>Any JSON value, sent as the request body. {DEFAULT_EVENT_HINT}</>} />
      <ContextAttributeTools kit={kit} name="invocation_target.body" as="text" />
    </>
  );
}
