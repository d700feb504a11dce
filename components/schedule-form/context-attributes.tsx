'use client';
/**
 * Context attributes in the form (SPEC §13.4): under a payload field (an AWS target's input, a
 * webhook's body, a workflow's input data), a button per token that inserts it at the cursor, and a
 * preview of the payload as the next fire would send it, made with the domain's own substitution
 * (`substituteContextAttributes`, `substituteInStrings` from the contract: no second implementation).
 * The form provides what the preview needs (`PayloadPreviewContext`): how the schedule names itself
 * (from the server, `contextPreviewFacts`) and its next fire (`nextFireOf`).
 */
import { createContext, useContext, useId } from 'react';
import { useWatch } from 'react-hook-form';
import { CONTEXT_ATTRIBUTE_TOKENS, substituteContextAttributes, substituteInStrings, type ContextAttributes, type ContextPreviewFacts } from '@/lib/schedules/contract';
import { formatInZone } from '../format';
import type { FieldKit } from './field-kit';
import type { FieldName } from './values';

/** What the payload preview is computed from, provided by the form. */
export interface PayloadPreviewInfo {
  /** How the schedule names itself (null: not known, e.g. a test harness without the server's facts). */
  facts: ContextPreviewFacts | null;
  /** The next nominal fire (UTC), or null while the cadence is incomplete. */
  nextFire: Date | null;
  /** The alias being typed: the schedule's name in its ARN (else its id). */
  alias: string;
  /** The schedule's time zone, to show the fire instant in. */
  timezone: string;
}

export const PayloadPreviewContext = createContext<PayloadPreviewInfo>({ facts: null, nextFire: null, alias: '', timezone: 'UTC' });

/** AWS's own example of an execution id (its user guide): each attempt gets a fresh one. */
const EXAMPLE_EXECUTION_ID = 'd32c5kddcf5bb8c3';

/** The attribute values the preview substitutes: the next fire's, attempt 1, an example execution id. */
function previewAttributes(info: PayloadPreviewInfo): ContextAttributes | null {
  if (!info.nextFire) return null;
  const id = info.facts?.scheduleId ?? null;
  const name = info.alias.trim() || id;
  const arn = info.facts?.scheduleArn ?? (info.facts?.arnPrefix && name ? `${info.facts.arnPrefix}${name}` : '(the schedule ARN, known once it has an alias or is saved)');
  return {
    scheduleArn: arn,
    scheduledFor: info.nextFire,
    executionId: EXAMPLE_EXECUTION_ID,
    attempt: 1,
    scheduleId: id ?? '(the new schedule id, assigned at save)',
    occurrenceId: '(the occurrence id, assigned at the fire)',
    // The check-in URL is made per attempt by the worker: the token shows as it is.
    checkinUrl: null,
  };
}

/**
 * The insert buttons and the next-fire preview of payload field `name`. `as`: how the field's text is
 * substituted — `text` (an AWS input, a webhook body's JSON text: the literal bytes) or `strings` (a
 * workflow's input data: the string values inside the JSON).
 */
export function ContextAttributeTools({ kit, name, as }: { kit: FieldKit; name: FieldName; as: 'text' | 'strings' }) {
  const info = useContext(PayloadPreviewContext);
  const text = ((useWatch({ control: kit.control, name }) as string | undefined) ?? '').toString();
  const groupId = useId();

  function insert(token: string) {
    const el = document.getElementById(kit.id(name)) as HTMLTextAreaElement | null;
    const current = (kit.getValues(name) as string | undefined) ?? '';
    const start = el?.selectionStart ?? current.length;
    const end = el?.selectionEnd ?? current.length;
    kit.setValue(name, `${current.slice(0, start)}${token}${current.slice(end)}`, { shouldDirty: true });
    // Back to the field, the cursor after the token, so the next keystroke continues from there.
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const attributes = previewAttributes(info);
  const hasToken = /<(?:aws\.scheduler|scheduler)\.[a-z-]+>/.test(text);
  let preview: { ok: true; text: string } | { ok: false; why: string } | null = null;
  if (hasToken) {
    if (!attributes) preview = { ok: false, why: 'Complete the cadence to see the payload of the next fire.' };
    else if (as === 'text') preview = { ok: true, text: substituteContextAttributes(text, attributes) };
    else {
      try {
        preview = { ok: true, text: JSON.stringify(substituteInStrings(JSON.parse(text), attributes), null, 2) };
      } catch {
        preview = { ok: false, why: 'The preview shows once the input data is valid JSON.' };
      }
    }
  }

  return (
    <div className="context-attributes">
      <p className="small" id={groupId}>
        Insert a context attribute (replaced at each attempt):
      </p>
      <div className="context-attribute-buttons" role="group" aria-labelledby={groupId}>
        {CONTEXT_ATTRIBUTE_TOKENS.map((t) => (
          <button key={t.token} type="button" className="btn btn-small mono" title={t.means} onClick={() => insert(t.token)} aria-label={`Insert ${t.token}: ${t.means}`}>
            {t.token}
          </button>
        ))}
      </div>
      {preview ? (
        <div className="payload-preview" data-testid={`payload-preview-${name}`}>
          <p className="small">
            {preview.ok && info.nextFire ? (
              <>
                As the next fire sends it (<span className="mono">{formatInZone(info.nextFire, info.timezone)}</span>, attempt 1; the execution id is an example, each attempt gets a fresh one):
              </>
            ) : (
              <span className="muted">{preview.ok ? null : preview.why}</span>
            )}
          </p>
          {/* A long payload scrolls: the block takes focus for keyboard scrolling (WCAG 2.1.1, axe scrollable-region-focusable). */}
          {preview.ok ? (
            <pre className="code-block" tabIndex={0} role="region" aria-label="Payload of the next fire">
              {preview.text}
            </pre>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
